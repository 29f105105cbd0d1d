import type { SendMessageRequest, SendMessageResponse } from "@pigeonhole/inbox-types";
import type { DraftStore, StoredDraft } from "../storage/inbox/draft-store.ts";
import type { InboxStore } from "../storage/inbox/inbox-store.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { SendContext } from "./send-message.ts";
import { sendMessage } from "./send-message.ts";

/** What sending a draft works with: the drafts, the inboxes (for the sender's display name) and the send path. */
export interface DraftSendContext {
  drafts: DraftStore;
  inboxes: InboxStore;
  send: SendContext;
}

const parseList = (json: string): string[] => JSON.parse(json) as string[];

/**
 * The `Idempotency-Key` every send of one draft carries: however many times it is sent (two requests at once, a
 * request and its scheduled time, an instance that stopped between the send and the deletion), one message goes
 * out, and every later send answers that message's ids. Request keys never contain `:`, so none can collide.
 */
const draftSendKey = (draftId: string) => `draft:${draftId}`;

/**
 * Sends a stored draft through Send Message (the same limits, delivery, threads and events), its labels changed by
 * `labels`, then deletes it. A draft without a recipient in `to`, or in an inbox outside the hosted domains, is
 * refused and stays.
 */
export async function sendStoredDraft(
  context: DraftSendContext,
  { draft }: StoredDraft,
  labels: (current: string[]) => string[] = (current) => current,
): Promise<SendMessageResponse> {
  const to = parseList(draft.to_addresses);
  if (to.length === 0) {
    throw new InboxProblem(400, "REQUIRED", `Draft '${draft.draft_id}' has no recipient in to.`, { field: "to" });
  }
  if (context.send.isHostedAddress?.(draft.inbox_id) === false) {
    throw new InboxProblem(
      400,
      "DOMAIN_NOT_HOSTED",
      `inbox_id: '${draft.inbox_id}' is not in a domain this server hosts, so it cannot send.`,
      { field: "inbox_id" },
    );
  }
  const inbox = await context.inboxes.findInbox(draft.pod_id, draft.inbox_id);
  if (!inbox) {
    throw new InboxProblem(404, "NOT_FOUND", `Inbox '${draft.inbox_id}' was not found.`, { field: "inbox_id" });
  }
  const sent = await sendMessage(context.send, {
    podId: draft.pod_id,
    inboxId: draft.inbox_id,
    displayName: inbox.display_name,
    body: await sendBodyOf(context.drafts, draft, labels(parseList(draft.labels))),
    idempotencyKey: draftSendKey(draft.draft_id),
    fingerprint: { draft_id: draft.draft_id },
  });
  await context.drafts.deleteDraft({ podId: draft.pod_id }, draft.draft_id);
  return sent;
}

/** The Send Message body of a draft: its fields, its attachments and, for a reply, its threading headers. */
async function sendBodyOf(
  drafts: DraftStore,
  draft: StoredDraft["draft"],
  labels: string[],
): Promise<SendMessageRequest> {
  const attachments = await drafts.draftAttachments(draft.draft_id);
  const references = parseList(draft.reference_ids);
  const optional = <Key extends keyof SendMessageRequest>(key: Key, value: SendMessageRequest[Key] | null) =>
    value === null || (Array.isArray(value) && value.length === 0) ? {} : { [key]: value };
  return {
    to: parseList(draft.to_addresses),
    ...optional("cc", parseList(draft.cc_addresses)),
    ...optional("bcc", parseList(draft.bcc_addresses)),
    ...optional("reply_to", parseList(draft.reply_to)),
    ...optional("subject", draft.subject),
    ...optional("text", draft.text_body),
    ...optional("html", draft.html_body),
    ...optional("labels", labels),
    ...optional(
      "attachments",
      attachments.map((attachment) => ({
        filename: attachment.filename,
        content_type: attachment.content_type,
        content: Buffer.from(attachment.content).toString("base64"),
      })),
    ),
    ...(draft.in_reply_to === null
      ? {}
      : { headers: { "In-Reply-To": draft.in_reply_to, References: references.join(" ") } }),
  };
}
