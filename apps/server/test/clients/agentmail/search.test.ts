import type { AgentMailClient } from "agentmail";
import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { expectData, type InboxClient, inboxClient } from "../../support/test-server.ts";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();
let runs = 0;

/** A new pod: the SDK's client and our typed client on the same key, with one inbox. */
async function newPodWithInbox(name: string) {
  const { sdk, apiKey } = await served.newPod();
  const client = inboxClient(served.server.inbox.url, apiKey);
  const inbox = (await sdk.inboxes.create({ username: `${name}-${++runs}` })).inboxId;
  return { sdk, client, apiKey, inbox };
}

/** Sends a message over the seed's path; answers its id. */
async function send(
  client: InboxClient,
  inbox: string,
  message: { to: string[]; subject: string; text?: string; html?: string },
): Promise<string> {
  const sent = expectData(
    await client.POST("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inbox } }, body: message }),
  );
  return sent.message_id;
}

/** What a call answered with when it failed: its status and the envelope's field and code. */
async function failure(call: Promise<unknown>): Promise<{ status?: number; field?: string; code?: string }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentMailError);
  const { statusCode, body } = error as AgentMailError;
  const details = (body as { error?: { details?: { field?: string; code?: string } } })?.error?.details;
  return { status: statusCode, field: details?.field, code: details?.code };
}

/** The subjects a message search finds, best first. */
async function found(sdk: AgentMailClient, inbox: string, q: string): Promise<(string | undefined)[]> {
  const { messages } = await sdk.inboxes.messages.search(inbox, { q, limit: 100 });
  return messages.map((message) => message.subject);
}

describe("search through the official agentmail SDK", () => {
  it("finds messages by word prefixes of the subject, addresses, text and html's text, ranked subject first", async () => {
    const { sdk, client, inbox } = await newPodWithInbox("search-rank");
    await send(client, inbox, {
      to: ["ada@example.com"],
      subject: "Lunch on Friday",
      text: "The invoice is attached.",
    });
    await send(client, inbox, { to: ["invoice-desk@example.com"], subject: "Misc", text: "Nothing much." });
    await send(client, inbox, { to: ["ada@example.com"], subject: "Quarterly invoice reminder", text: "Please pay." });
    await send(client, inbox, {
      to: ["bob@example.com"],
      subject: "Hello",
      html: '<p>Your <b>zebrafish</b> report</p><blockquote class="quux">Kiwi</blockquote><style>.invoice{}</style>',
    });

    // Subject (4) before the addresses (2) before the body (1).
    expect(await found(sdk, inbox, "invoice")).toEqual(["Quarterly invoice reminder", "Misc", "Lunch on Friday"]);
    expect(await found(sdk, inbox, "INVOICE")).toEqual(await found(sdk, inbox, "invoice"));
    expect(await found(sdk, inbox, "inv rem")).toEqual(["Quarterly invoice reminder"]);
    // The html's text is searched; its tags, attributes and styles are not.
    expect(await found(sdk, inbox, "zebra")).toEqual(["Hello"]);
    expect(await found(sdk, inbox, "kiwi")).toEqual(["Hello"]);
    expect(await found(sdk, inbox, "blockquote")).toEqual([]);
    expect(await found(sdk, inbox, "quux")).toEqual([]);
    // Recipients and the sender: a whole address is its words.
    expect(await found(sdk, inbox, "bob@example.com")).toEqual(["Hello"]);
    expect((await found(sdk, inbox, inbox)).length).toBe(4);
    expect(await found(sdk, inbox, "voice")).toEqual([]);

    const { messages } = await sdk.inboxes.messages.search(inbox, { q: "zebrafish" });
    expect(messages[0]).toMatchObject({ inboxId: inbox, subject: "Hello", to: ["bob@example.com"] });
    expect(messages[0]?.messageId).toMatch(/^<.+@.+>$/);
  });

  it("keeps to messages before and after the given times", async () => {
    const { sdk, client, inbox } = await newPodWithInbox("search-period");
    await send(client, inbox, { to: ["ada@example.com"], subject: "Mango one" });
    const [first] = (await sdk.inboxes.messages.search(inbox, { q: "mango" })).messages;
    const at = new Date(first?.timestamp ?? 0);
    await send(client, inbox, { to: ["ada@example.com"], subject: "Mango two" });

    const all = await sdk.inboxes.messages.search(inbox, { q: "mango", before: new Date("2999-01-01T00:00:00Z") });
    expect(all.messages).toHaveLength(2);
    expect(
      (await sdk.inboxes.messages.search(inbox, { q: "mango", after: at })).messages.map((m) => m.subject),
    ).not.toContain("Mango one");
    const around = { after: new Date(at.getTime() - 1), before: new Date(at.getTime() + 1) };
    expect(
      (await sdk.inboxes.messages.search(inbox, { q: "mango", ...around })).messages.map((m) => m.subject),
    ).toContain("Mango one");
    expect(
      (await sdk.inboxes.messages.search(inbox, { q: "mango", before: new Date("2000-01-01T00:00:00Z") })).messages,
    ).toEqual([]);
  });

  it("pages a ranking with the SDK's page tokens, every match once, in the same order", async () => {
    const { sdk, client, inbox } = await newPodWithInbox("search-pages");
    for (let index = 0; index < 5; index += 1) {
      await send(client, inbox, {
        to: ["ada@example.com"],
        subject: index % 2 ? `Papaya ${index}` : `Note ${index}`,
        text: "papaya",
      });
    }
    const whole = await found(sdk, inbox, "papaya");
    expect(whole).toHaveLength(5);
    expect(whole.slice(0, 2).every((subject) => subject?.startsWith("Papaya"))).toBe(true);

    const paged: (string | undefined)[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const answer = await sdk.inboxes.messages.search(inbox, { q: "papaya", limit: 2, pageToken });
      paged.push(...answer.messages.map((message) => message.subject));
      pageToken = answer.nextPageToken ?? undefined;
      if (pageToken === undefined) {
        break;
      }
      // A new match arriving between pages neither repeats nor skips one.
      if (page === 0) {
        await send(client, inbox, { to: ["ada@example.com"], subject: "Late", text: "papaya" });
      }
    }
    expect(paged.filter((subject) => subject !== "Late")).toEqual(whole);
    expect(new Set(paged).size).toBe(paged.length);
  });

  it("searches threads of an inbox and of the whole pod", async () => {
    const { sdk, client, inbox } = await newPodWithInbox("search-threads");
    const other = (await sdk.inboxes.create({ username: `search-threads-b-${++runs}` })).inboxId;
    await send(client, inbox, { to: [other], subject: "Durian plans", text: "See you." });
    await send(client, inbox, { to: ["ada@example.com"], subject: "Unrelated", text: "Nothing." });

    const inInbox = await sdk.inboxes.threads.search(inbox, { q: "durian" });
    expect(inInbox.threads.map((thread) => thread.subject)).toEqual(["Durian plans"]);
    expect(inInbox.threads[0]?.inboxId).toBe(inbox);

    // The sent copy's thread and the received copy's thread, one per inbox.
    const inPod = await sdk.threads.search({ q: "durian" });
    expect(inPod.threads.map((thread) => thread.inboxId).sort()).toEqual([inbox, other].sort());
  });

  it("finds inboxes by word prefixes of the address and display name, the exact address first", async () => {
    const { sdk } = await served.newPod();
    const run = ++runs;
    const desk = await sdk.inboxes.create({ username: `support-desk-${run}`, displayName: "Help Center" });
    const plain = await sdk.inboxes.create({ username: `support-${run}` });
    await sdk.inboxes.create({ username: `sales-${run}` });

    const bySup = await sdk.inboxes.search({ q: "sup" });
    expect(bySup.inboxes.map((inbox) => inbox.inboxId).sort()).toEqual([desk.inboxId, plain.inboxId].sort());
    expect((await sdk.inboxes.search({ q: "port" })).inboxes).toEqual([]);
    expect((await sdk.inboxes.search({ q: "help cent" })).inboxes.map((inbox) => inbox.inboxId)).toEqual([
      desk.inboxId,
    ]);
    expect((await sdk.inboxes.search({ q: plain.inboxId })).inboxes[0]?.inboxId).toBe(plain.inboxId);
    expect((await sdk.inboxes.search({ q: desk.inboxId })).inboxes[0]?.inboxId).toBe(desk.inboxId);
  });

  it("answers bad queries with 400s in the envelope", async () => {
    const { sdk, apiKey, inbox } = await newPodWithInbox("search-bad");
    expect(await failure(sdk.inboxes.messages.search(inbox, { q: "@@ --" }))).toEqual({
      status: 400,
      field: "q",
      code: "INVALID_VALUE",
    });
    expect(await failure(sdk.inboxes.messages.search(inbox, { q: "x".repeat(257) }))).toMatchObject({
      status: 400,
      field: "q",
      code: "TOO_LONG",
    });
    expect(await failure(sdk.threads.search({ q: Array.from({ length: 33 }, () => "w").join(" ") }))).toMatchObject({
      status: 400,
      field: "q",
    });
    expect(await failure(sdk.inboxes.messages.search(inbox, { q: "a", limit: 101 }))).toMatchObject({
      status: 400,
      field: "limit",
    });
    expect(await failure(sdk.inboxes.search({ q: "a" }))).toMatchObject({ status: 400, field: "q" });
    const token = (await sdk.inboxes.search({ q: "search", limit: 1 })).nextPageToken;
    expect(await failure(sdk.inboxes.messages.search(inbox, { q: "mango", pageToken: token ?? "abc" }))).toMatchObject({
      status: 400,
      code: "INVALID_PAGE_TOKEN",
    });

    // The index's own query syntax in a query is only more words (or none), never an operator.
    for (const q of ['"guava" OR * : {subject} & | ! ( ) <->', "NEAR(a b) NOT c", "a:* & !b"]) {
      expect((await sdk.inboxes.messages.search(inbox, { q })).messages).toEqual([]);
      expect((await sdk.threads.search({ q })).threads).toEqual([]);
    }
    const raw = async (query: string) => {
      const response = await fetch(
        `${served.server.inbox.url}/v0/inboxes/${encodeURIComponent(inbox)}/messages/search?${query}`,
        { headers: { Authorization: `Bearer ${apiKey}` } },
      );
      return {
        status: response.status,
        details: ((await response.json()) as { error: { details: unknown } }).error.details,
      };
    };
    expect(await raw("")).toEqual({ status: 400, details: { field: "q", code: "REQUIRED" } });
    expect(await raw("q=mango&before=yesterday")).toEqual({
      status: 400,
      details: { field: "before", code: "INVALID_VALUE" },
    });
    expect(await raw("q=mango&after=2026-13-01T00:00:00Z")).toMatchObject({ status: 400, details: { field: "after" } });
  });

  it("never finds another pod's messages, threads or inboxes", async () => {
    const victim = await newPodWithInbox("search-victim");
    await send(victim.client, victim.inbox, {
      to: ["ada@example.com"],
      subject: "Secret guava plan",
      text: "guava guava",
      html: "<p>guava</p>",
    });
    const attacker = await newPodWithInbox("search-attacker");
    await send(attacker.client, attacker.inbox, { to: ["ada@example.com"], subject: "My own guava", text: "guava" });

    expect(await found(attacker.sdk, attacker.inbox, "guava")).toEqual(["My own guava"]);
    const podThreads = await attacker.sdk.threads.search({ q: "guava", limit: 100 });
    expect(podThreads.threads.map((thread) => thread.inboxId)).toEqual([attacker.inbox]);
    expect((await attacker.sdk.threads.search({ q: "secret" })).threads).toEqual([]);
    expect(await failure(attacker.sdk.inboxes.messages.search(victim.inbox, { q: "guava" }))).toMatchObject({
      status: 404,
    });
    expect(await failure(attacker.sdk.inboxes.threads.search(victim.inbox, { q: "guava" }))).toMatchObject({
      status: 404,
    });
    expect((await attacker.sdk.inboxes.search({ q: "search victim" })).inboxes).toEqual([]);
    expect((await attacker.sdk.inboxes.search({ q: victim.inbox })).inboxes).toEqual([]);
    // The victim's own view is whole.
    expect(await found(victim.sdk, victim.inbox, "guava")).toEqual(["Secret guava plan"]);
  });
});
