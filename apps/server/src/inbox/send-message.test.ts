import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

async function newInbox(client: InboxClient, username: string, displayName?: string) {
  return expectData(await client.POST("/v0/inboxes", { body: { username, display_name: displayName } })).inbox_id;
}

describe("sending", () => {
  it("stores the sender's copy with every field, labelled sent, and answers its ids", async () => {
    const from = await newInbox(t.inbox, "billing", "Billing Team");
    const pdf = Buffer.from("%PDF-1.4 pretend invoice");
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: {
          to: "ada@example.com",
          cc: ["grace@example.com"],
          bcc: "audit@example.com",
          reply_to: ["help@example.com"],
          subject: "Your invoice",
          text: "Hi Ada, your invoice is attached.",
          html: "<p>Hi Ada</p>",
          labels: ["billing", "billing"],
          attachments: [{ filename: "invoice.pdf", content: pdf.toString("base64"), content_type: "application/pdf" }],
          headers: { "X-Campaign": "november" },
        },
      }),
    );
    expect(sent.message_id).toMatch(/^<[0-9a-f-]+@pigeonhole\.test>$/);
    expect(sent.thread_id).toMatch(/^thd_/);

    const message = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: from, message_id: sent.message_id } },
      }),
    );
    expect(message).toMatchObject({
      inbox_id: from,
      thread_id: sent.thread_id,
      message_id: sent.message_id,
      labels: ["sent", "billing"],
      from: "Billing Team <billing@pigeonhole.test>",
      to: ["ada@example.com"],
      cc: ["grace@example.com"],
      bcc: ["audit@example.com"],
      reply_to: ["help@example.com"],
      subject: "Your invoice",
      preview: "Hi Ada, your invoice is attached.",
      text: "Hi Ada, your invoice is attached.",
      html: "<p>Hi Ada</p>",
      in_reply_to: null,
      references: [],
      headers: { "X-Campaign": "november" },
    });
    expect(message.attachments).toEqual([
      {
        attachment_id: expect.stringMatching(/^att_/),
        filename: "invoice.pdf",
        content_type: "application/pdf",
        size: pdf.length,
      },
    ]);
    expect(message.size).toBeGreaterThan(pdf.length);
  });

  it("travels message ids URL-encoded in paths", async () => {
    const from = await newInbox(t.inbox, "encoded");
    const { message_id } = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to: "x@example.com", text: "hello" },
      }),
    );
    const raw = await fetch(
      `${t.server.inbox.url}/v0/inboxes/${encodeURIComponent(from)}/messages/${encodeURIComponent(message_id)}`,
      { headers: { Authorization: `Bearer ${t.server.inbox.apiKey}` } },
    );
    expect(raw.status).toBe(200);
    expect(((await raw.json()) as { message_id: string }).message_id).toBe(message_id);
  });

  it("delivers to inboxes hosted here, labelled received, in their own tenant, without bcc", async () => {
    const other = await t.newInboxTenant();
    const from = await newInbox(t.inbox, "sender");
    const to = await newInbox(other, "receiver");
    const hidden = await newInbox(other, "hidden");
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to: to.toUpperCase(), bcc: [hidden], subject: "Hello", text: "Hi there" },
      }),
    );
    for (const inbox of [to, hidden]) {
      const received = expectData(
        await other.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
          params: { path: { inbox_id: inbox, message_id: sent.message_id } },
        }),
      );
      expect(received.labels).toEqual(["received", "unread"]);
      expect(received.bcc).toEqual([]);
      expect(received.from).toBe(from);
      expect(received.thread_id).not.toBe(sent.thread_id);
    }
    const senderList = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: from } } }),
    );
    expect(senderList.messages.map((m) => m.labels)).toEqual([["sent"]]);
    const notMine = await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: to } } });
    expect(notMine.response.status).toBe(404);
  });

  it("delivers to many inboxes hosted here at once, each copy with its own thread, attachment and source", async () => {
    const other = await t.newInboxTenant();
    const from = await newInbox(t.inbox, "fan-out");
    const recipients: string[] = [];
    for (let i = 0; i < 12; i++) {
      recipients.push(await newInbox(other, `fan-${i}`));
    }
    const content = Buffer.from("attached to every copy").toString("base64");
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: {
          to: recipients.slice(0, 6),
          bcc: recipients.slice(6),
          subject: "To all",
          text: "Hello, all.",
          attachments: [{ filename: "note.txt", content_type: "text/plain", content }],
        },
      }),
    );
    const threads = new Set<string>();
    for (const inbox of recipients) {
      const path = { inbox_id: inbox, message_id: sent.message_id };
      const received = expectData(
        await other.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", { params: { path } }),
      );
      threads.add(received.thread_id);
      expect(received.inbox_id).toBe(inbox);
      const [attachment] = received.attachments;
      const download = await other.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}", {
        params: { path: { ...path, attachment_id: attachment?.attachment_id ?? "" } },
        parseAs: "text",
      });
      expect(download.data).toBe("attached to every copy");
      const raw = await other.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
        params: { path },
        parseAs: "text",
      });
      expect(raw.data).toContain("Subject: To all");
      expect(raw.data).not.toMatch(/^Bcc:/im);
    }
    expect(threads.size).toBe(recipients.length);
    const own = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: from, message_id: sent.message_id } },
      }),
    );
    expect(own.deliveries.map((delivery) => [delivery.address, delivery.status])).toEqual(
      recipients.map((address) => [address, "local"]),
    );
  });

  it("lists messages newest first without bodies", async () => {
    const from = await newInbox(t.inbox, "lister");
    for (const text of ["one", "two", "three"]) {
      expectData(
        await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: from } },
          body: { to: "x@example.com", text },
        }),
      );
    }
    const page = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from }, query: { limit: 2 } },
      }),
    );
    expect(page.messages.map((m) => m.preview)).toEqual(["three", "two"]);
    expect(page.messages[0]).not.toHaveProperty("text");
    expect(page.messages[0]).not.toHaveProperty("html");
    const rest = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from }, query: { limit: 2, page_token: page.next_page_token ?? "" } },
      }),
    );
    expect(rest.messages.map((m) => m.preview)).toEqual(["one"]);
    expect(rest.next_page_token).toBeNull();
  });
});

describe("send validation", () => {
  let from: string;
  beforeAll(async () => {
    from = await newInbox(t.inbox, "validator");
  });
  const send = (body: unknown) =>
    t.inbox.POST("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: from } }, body: body as never });

  it("names an invalid address with INVALID_EMAIL, in a single value or a list", async () => {
    const single = await send({ to: "ada@" });
    expect(single.response.status).toBe(400);
    expect(single.error?.error).toMatchObject({
      type: "validation_error",
      message: "to: 'ada@' is not a valid e-mail address.",
      details: { field: "to", code: "INVALID_EMAIL" },
    });
    const listed = await send({ to: ["ok@example.com"], cc: ["ok@example.com", "not an address"] });
    expect(listed.error?.error.details).toEqual({ field: "cc.1", code: "INVALID_EMAIL" });
  });

  it("requires to, and at most 50 recipients over to, cc and bcc", async () => {
    expect((await send({ subject: "no one" })).error?.error.details).toEqual({ field: "to", code: "REQUIRED" });
    expect((await send({ to: 7 })).error?.error.details).toEqual({ field: "to", code: "INVALID_TYPE" });
    const addresses = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}@example.com`);
    const tooManyInOne = await send({ to: addresses(51, "a") });
    expect(tooManyInOne.error?.error.details).toEqual({ field: "to", code: "TOO_MANY_RECIPIENTS" });
    const tooManyOverall = await send({ to: addresses(20, "a"), cc: addresses(20, "c"), bcc: addresses(11, "b") });
    expect(tooManyOverall.response.status).toBe(400);
    expect(tooManyOverall.error?.error.details.code).toBe("TOO_MANY_RECIPIENTS");
    expectData(await send({ to: addresses(20, "a"), cc: addresses(20, "c"), bcc: addresses(10, "b") }));
  });

  it("refuses attachment content that is not base64, and more than 10 MiB decoded", async () => {
    const bad = await send({ to: "a@example.com", attachments: [{ filename: "x.bin", content: "not base64!" }] });
    expect(bad.error?.error.details).toEqual({ field: "attachments.0.content", code: "INVALID_VALUE" });
    const big = Buffer.alloc(5.5 * 1024 * 1024, 1).toString("base64");
    const tooBig = await send({
      to: "a@example.com",
      attachments: [
        { filename: "a.bin", content: big },
        { filename: "b.bin", content: big },
      ],
    });
    expect(tooBig.response.status).toBe(413);
    expect(tooBig.error?.error).toMatchObject({
      type: "payload_too_large_error",
      details: { code: "PAYLOAD_TOO_LARGE" },
    });
  });

  it("answers 404 for sending from another tenant's inbox", async () => {
    const other = await t.newInboxTenant();
    const { response, error } = await other.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: from } },
      body: { to: "a@example.com" },
    });
    expect(response.status).toBe(404);
    expect(error?.error.details).toEqual({ field: "inbox_id", code: "NOT_FOUND" });
  });
});

describe("idempotent sends", () => {
  it("answers the original ids for the same key and body, and sends nothing more", async () => {
    const from = await newInbox(t.inbox, "idem");
    const to = await newInbox(t.inbox, "idem-to");
    const body = { to, subject: "Once", text: "only once" };
    const call = () =>
      t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from }, header: { "Idempotency-Key": "key-1" } },
        body,
      });
    const first = expectData(await call());
    const results = await Promise.all([call(), call(), call()]);
    for (const result of results) {
      expect(expectData(result)).toEqual(first);
    }
    const received = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: to } } }),
    );
    expect(received.count).toBe(1);
    const sentList = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: from } } }),
    );
    expect(sentList.count).toBe(1);
  });

  it("answers 409 IDEMPOTENCY_KEY_REUSED for the same key with another body or inbox", async () => {
    const from = await newInbox(t.inbox, "idem-2");
    const another = await newInbox(t.inbox, "idem-3");
    const headers = { "Idempotency-Key": "key-2" };
    expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from }, header: headers },
        body: { to: "a@example.com", text: "first" },
      }),
    );
    const changed = await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: from }, header: headers },
      body: { to: "a@example.com", text: "second" },
    });
    expect(changed.response.status).toBe(409);
    expect(changed.error?.error).toMatchObject({
      type: "conflict_error",
      details: { field: "Idempotency-Key", code: "IDEMPOTENCY_KEY_REUSED" },
    });
    const elsewhere = await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: another }, header: headers },
      body: { to: "a@example.com", text: "first" },
    });
    expect(elsewhere.response.status).toBe(409);
  });

  it("keeps keys per API key, and refuses malformed keys", async () => {
    const other = await t.newInboxTenant();
    const mine = await newInbox(t.inbox, "idem-4");
    const theirs = await newInbox(other, "idem-5");
    const header = { "Idempotency-Key": "shared-key" };
    const a = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: mine }, header },
        body: { to: "a@example.com" },
      }),
    );
    const b = expectData(
      await other.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: theirs }, header },
        body: { to: "a@example.com" },
      }),
    );
    expect(b.message_id).not.toBe(a.message_id);
    const malformed = await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: mine }, header: { "Idempotency-Key": "has spaces" } },
      body: { to: "a@example.com" },
    });
    expect(malformed.error?.error.details).toEqual({ field: "Idempotency-Key", code: "INVALID_VALUE" });
  });
});

describe("send limit", () => {
  it("answers 429 SEND_LIMIT_EXCEEDED with Retry-After once the day's sends are used, and resets the next UTC day", async () => {
    const clock = new ManualClock(Date.parse("2026-11-22T23:59:00.000Z"));
    const limited = await startTestServer({ clock, limits: { inboxSendsPerDay: 2 } });
    try {
      const from = await newInbox(limited.inbox, "limited");
      const send = () =>
        limited.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: from } },
          body: { to: "a@example.com" },
        });
      expectData(await send());
      expectData(await send());
      const over = await send();
      expect(over.response.status).toBe(429);
      expect(over.error?.error).toMatchObject({ type: "rate_limit_error", details: { code: "SEND_LIMIT_EXCEEDED" } });
      expect(over.response.headers.get("Retry-After")).toBe("60");
      clock.advance(60_000);
      expectData(await send());
    } finally {
      await limited.server.close();
    }
  });
});
