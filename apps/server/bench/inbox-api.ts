import type { ListMessagesResponse, Message, MessageItem, SendMessageResponse } from "@pigeonhole/inbox-types";

/** An inbox of a server instance, reached with the benchmark's key. */
export interface InboxTarget {
  inboxUrl: string;
  inboxKey: string;
  inbox: string;
}

const REQUEST_TIMEOUT_MS = 10_000;

async function call<T>(target: InboxTarget, path: string, init: RequestInit = {}): Promise<T> {
  const url = `${target.inboxUrl}/v0/inboxes/${encodeURIComponent(target.inbox)}${path}`;
  const response = await fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${target.inboxKey}`, "Content-Type": "application/json" },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) {
    throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}: ${await response.text()}`);
  }
  // The server's answers follow the spec, which its own tests hold it to.
  return (await response.json()) as T;
}

/** Every message of the inbox that carries all of `labels`, page after page. */
export async function listAllMessages(target: InboxTarget, labels: readonly string[]): Promise<MessageItem[]> {
  const items: MessageItem[] = [];
  let pageToken: string | null = null;
  do {
    const query = new URLSearchParams({ limit: "100" });
    for (const label of labels) {
      query.append("labels", label);
    }
    if (pageToken !== null) {
      query.set("page_token", pageToken);
    }
    const page: ListMessagesResponse = await call(target, `/messages?${query}`);
    items.push(...page.messages);
    pageToken = page.next_page_token;
  } while (pageToken !== null);
  return items;
}

export function getMessage(target: InboxTarget, messageId: string): Promise<Message> {
  return call(target, `/messages/${encodeURIComponent(messageId)}`);
}

export function sendMessage(
  target: InboxTarget,
  body: { to: string; subject: string; text: string },
): Promise<SendMessageResponse> {
  return call(target, "/messages", { method: "POST", body: JSON.stringify(body) });
}
