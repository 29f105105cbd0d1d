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
  return { sdk, client, inbox };
}

/** What a call answered with when it failed: its status and the envelope's code. */
async function failure(call: Promise<unknown>): Promise<{ status?: number; code?: string }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentMailError);
  const { statusCode, body } = error as AgentMailError;
  return { status: statusCode, code: (body as { error?: { details?: { code?: string } } })?.error?.details?.code };
}

/** Sends a message over the seed's path (the send every path of the API shares). */
async function send(client: InboxClient, inbox: string, to: string[], subject: string) {
  return expectData(
    await client.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inbox } },
      body: { to, subject, text: "Hello" },
    }),
  );
}

/** The subjects of an inbox's messages, newest first. */
async function subjectsIn(sdk: AgentMailClient, inbox: string) {
  return (await sdk.inboxes.messages.list(inbox)).messages.map((message) => message.subject);
}

describe("pod-wide lists through the official SDK (lists.*)", () => {
  it("creates, gets, lists and deletes entries of each direction and type", async () => {
    const { sdk } = await served.newPod();
    for (const direction of ["send", "receive"] as const) {
      for (const type of ["allow", "block"] as const) {
        const created = await sdk.lists.create(direction, type, { entry: "Ada@Example.COM", reason: "testing" });
        expect(created).toMatchObject({
          entry: "ada@example.com",
          direction,
          listType: type,
          entryType: "email",
          reason: "testing",
          readOnly: false,
        });
        expect(created.createdAt).toBeInstanceOf(Date);
        expect(await sdk.lists.get(direction, type, "ADA@example.com")).toMatchObject({ entry: "ada@example.com" });
        const listed = await sdk.lists.list(direction, type);
        expect(listed.entries.map((entry) => entry.entry)).toEqual(["ada@example.com"]);
        expect(listed.count).toBe(1);
        await sdk.lists.delete(direction, type, "ada@example.com");
        expect(await failure(sdk.lists.get(direction, type, "ada@example.com"))).toEqual({
          status: 404,
          code: "NOT_FOUND",
        });
        expect((await failure(sdk.lists.delete(direction, type, "ada@example.com"))).status).toBe(404);
      }
    }
  });

  it("keeps one entry per list: adding it again answers the first, unchanged", async () => {
    const { sdk } = await served.newPod();
    const first = await sdk.lists.create("receive", "block", { entry: "example.com", reason: "first" });
    expect(first.entryType).toBe("domain");
    const again = await sdk.lists.create("receive", "block", { entry: "EXAMPLE.com", reason: "second" });
    expect(again).toEqual(first);
    expect((await sdk.lists.list("receive", "block")).count).toBe(1);
    // The same entry in another list is another entry.
    await sdk.lists.create("receive", "allow", { entry: "example.com" });
    expect((await sdk.lists.list("receive", "allow")).count).toBe(1);
  });

  it("pages in ascending order of entry", async () => {
    const { sdk } = await served.newPod();
    const entries = ["e.example", "a.example", "d@b.example", "c.example", "b.example"];
    for (const entry of entries) {
      await sdk.lists.create("send", "block", { entry });
    }
    const seen: string[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < 5; page++) {
      const listed = await sdk.lists.list("send", "block", { limit: 2, pageToken });
      expect(listed.count).toBe(listed.entries.length);
      seen.push(...listed.entries.map((entry) => entry.entry));
      pageToken = listed.nextPageToken ?? undefined;
      if (!pageToken) {
        break;
      }
    }
    expect(seen).toEqual([...entries].sort());
    expect((await failure(sdk.lists.list("send", "allow", { pageToken: "bm90LWEtdG9rZW4" }))).code).toBe(
      "INVALID_PAGE_TOKEN",
    );
  });

  it("refuses entries that are neither an address nor a domain, and the reply direction", async () => {
    const { sdk } = await served.newPod();
    for (const entry of ["not a domain", "ada@", "@example.com", "localhost", "-bad.example"]) {
      expect(await failure(sdk.lists.create("receive", "block", { entry })), entry).toEqual({
        status: 400,
        code: "INVALID_VALUE",
      });
    }
    expect((await failure(sdk.lists.list("reply", "block"))).status).toBe(400);
  });
});

describe("an inbox's lists through the official SDK (inboxes.lists.*)", () => {
  it("creates, gets, lists and deletes entries, naming the pod and the inbox", async () => {
    const { sdk, inbox } = await newPodWithInbox("lists-crud");
    const podId = (await sdk.inboxes.get(inbox)).podId;
    const created = await sdk.inboxes.lists.create(inbox, "receive", "block", { entry: "spam@example.com" });
    expect(created).toMatchObject({ entry: "spam@example.com", podId, inboxId: inbox, entryType: "email" });
    expect(await sdk.inboxes.lists.get(inbox, "receive", "block", "spam@example.com")).toEqual(created);
    expect((await sdk.inboxes.lists.list(inbox, "receive", "block")).entries).toEqual([created]);
    // The inbox's list is not the pod's.
    expect((await sdk.lists.list("receive", "block")).count).toBe(0);
    await sdk.inboxes.lists.delete(inbox, "receive", "block", "spam@example.com");
    expect((await sdk.inboxes.lists.list(inbox, "receive", "block")).count).toBe(0);
  });

  it("go with their inbox: an inbox made again at the same address starts with none, and the pod's stay", async () => {
    const { sdk, inbox } = await newPodWithInbox("lists-deleted");
    await sdk.inboxes.lists.create(inbox, "receive", "block", { entry: "spam@example.com" });
    await sdk.lists.create("receive", "block", { entry: "pod-wide@example.com" });
    await sdk.inboxes.delete(inbox);
    await sdk.inboxes.create({ username: inbox.split("@")[0] });
    expect((await sdk.inboxes.lists.list(inbox, "receive", "block")).count).toBe(0);
    expect((await sdk.lists.list("receive", "block")).entries?.map((entry) => entry.entry)).toEqual([
      "pod-wide@example.com",
    ]);
  });

  it("answers 404 for an inbox that does not exist", async () => {
    const { sdk } = await served.newPod();
    expect((await failure(sdk.inboxes.lists.list("nobody@pigeonhole.test", "send", "allow"))).status).toBe(404);
    expect(
      (await failure(sdk.inboxes.lists.create("nobody@pigeonhole.test", "send", "allow", { entry: "example.com" })))
        .status,
    ).toBe(404);
  });
});

describe("lists applied to mail sent between inboxes of the server", () => {
  it("keeps a blocked sender's mail out of the inbox, by the pod's list or the inbox's, and shows it bounced", async () => {
    const sender = await newPodWithInbox("sender");
    const receiver = await newPodWithInbox("receiver");
    await receiver.sdk.lists.create("receive", "block", { entry: sender.inbox.toUpperCase() });
    const blocked = await send(sender.client, sender.inbox, [receiver.inbox], "blocked by the pod");
    await receiver.sdk.lists.delete("receive", "block", sender.inbox);
    await receiver.sdk.inboxes.lists.create(receiver.inbox, "receive", "block", { entry: "pigeonhole.test" });
    await send(sender.client, sender.inbox, [receiver.inbox], "blocked by the inbox");
    await receiver.sdk.inboxes.lists.delete(receiver.inbox, "receive", "block", "pigeonhole.test");
    await send(sender.client, sender.inbox, [receiver.inbox], "admitted");

    expect(await subjectsIn(receiver.sdk, receiver.inbox)).toEqual(["admitted"]);
    expect((await receiver.sdk.inboxes.threads.list(receiver.inbox)).threads).toHaveLength(1);
    const sent = expectData(
      await sender.client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: sender.inbox, message_id: blocked.message_id } },
      }),
    );
    expect(sent.deliveries).toEqual([expect.objectContaining({ address: receiver.inbox, status: "bounced" })]);
  });

  it("admits only the allow list's entries when it has some, and lets block win over allow", async () => {
    const sender = await newPodWithInbox("allowed");
    const other = await newPodWithInbox("stranger");
    const receiver = await newPodWithInbox("picky");
    await receiver.sdk.inboxes.lists.create(receiver.inbox, "receive", "allow", { entry: sender.inbox });
    await send(sender.client, sender.inbox, [receiver.inbox], "from the allowed");
    await send(other.client, other.inbox, [receiver.inbox], "from a stranger");
    expect(await subjectsIn(receiver.sdk, receiver.inbox)).toEqual(["from the allowed"]);

    // The pod's block list wins over the inbox's allow list.
    await receiver.sdk.lists.create("receive", "block", { entry: "pigeonhole.test" });
    await send(sender.client, sender.inbox, [receiver.inbox], "allowed but blocked");
    expect(await subjectsIn(receiver.sdk, receiver.inbox)).toEqual(["from the allowed"]);
  });

  it("matches a domain entry on its subdomains, never on a longer name that ends the same", async () => {
    const { sdk, client, inbox } = await newPodWithInbox("outbound");
    await sdk.lists.create("send", "block", { entry: "Example.com" });
    for (const to of ["ada@example.com", "ada@mail.EXAMPLE.com"]) {
      const refused = await client.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inbox } },
        body: { to: ["ok@partner.example"], cc: [to], subject: "refused", text: "x" },
      });
      expect(refused.response.status, to).toBe(400);
      expect(refused.error?.error.details).toEqual({ field: "cc", code: "RECIPIENT_BLOCKED" });
    }
    await send(client, inbox, ["ada@notexample.com"], "not a subdomain");
    expect(await subjectsIn(sdk, inbox)).toEqual(["not a subdomain"]);
  });

  it("refuses a send outside the send allow list with RECIPIENT_BLOCKED, storing nothing", async () => {
    const { sdk, client, inbox } = await newPodWithInbox("restricted");
    await sdk.inboxes.lists.create(inbox, "send", "allow", { entry: "partner.example" });
    await send(client, inbox, ["ada@partner.example"], "to a partner");
    const refused = await client.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inbox } },
      body: { to: ["ada@partner.example"], bcc: ["eve@elsewhere.example"], subject: "with a stranger", text: "x" },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error).toMatchObject({
      type: "validation_error",
      details: { field: "bcc", code: "RECIPIENT_BLOCKED" },
    });
    expect(await subjectsIn(sdk, inbox)).toEqual(["to a partner"]);
  });
});
