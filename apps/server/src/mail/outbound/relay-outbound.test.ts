import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { MessageBouncedEvent, MessageDelayedEvent, MessageDeliveredEvent } from "@pigeonhole/inbox-types";
import type { DeliveredMessage, Relay } from "@pigeonhole/mail-testing";
import { startRelay, swaks } from "@pigeonhole/mail-testing";
import { createTestControl } from "@pigeonhole/test-control";
import { dkimVerify } from "mailauth";
import { simpleParser } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import { DEFAULT_SMTP_RETRY_DELAYS_MS, type ServerOptions } from "../../options.ts";

// Mail sent through the API goes out through a real Postfix relay on loopback, which stores what it delivers.

type OutcomeEvent = MessageDeliveredEvent | MessageDelayedEvent | MessageBouncedEvent;

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(() => relay.stop());

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

const unique = () => randomBytes(4).toString("hex");

async function serverWithRelay(options: Partial<ServerOptions> = {}) {
  // The default retry schedule: a test moves the server's clock past a retry instead of waiting for it.
  const t = await startTestServer({ smtpRelay: relay.url, ...options });
  const receiver = await startWebhookReceiver();
  cleanups.push(
    () => t.server.close(),
    () => receiver.close(),
  );
  expectData(
    await t.inbox.POST("/v0/webhooks", {
      body: { url: receiver.url, event_types: ["message.delivered", "message.delayed", "message.bounced"] },
    }),
  );
  /**
   * Every event so far, each once, once there are `count`: a delivery is at least once, and one in flight when the
   * clock jumps hours ahead may be sent again, with the same event id.
   */
  const events = async (count: number, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (let received = count; ; received++) {
      const deliveries = await receiver.waitFor(received, Math.max(0, deadline - Date.now()));
      const unique = new Map(deliveries.map((d) => [d.headers["webhook-id"], JSON.parse(d.body) as OutcomeEvent]));
      if (unique.size >= count) {
        return [...unique.values()];
      }
    }
  };
  return { t, events, control: controlOf(t) };
}

/** The typed client of the test server's test control (on: the server runs with the development keys). */
function controlOf(t: TestServer) {
  const testControl = t.server.testControl;
  if (!testControl) {
    throw new Error("Test control is off on the test server.");
  }
  return createTestControl({ baseUrl: t.server.inbox.url, key: testControl.key });
}

async function newInbox(t: TestServer, username = `sender-${unique()}`) {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
}

async function deliveriesOf(t: TestServer, inboxId: string, messageId: string) {
  return expectData(
    await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: inboxId, message_id: messageId } },
    }),
  ).deliveries;
}

/** What the relay delivered to `address` so far, waiting (bounded) until there are `count`. */
async function deliveredTo(address: string, count: number, timeoutMs = 15_000): Promise<DeliveredMessage[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await relay.delivered()).filter((message) => message.recipient === address);
    if (found.length >= count || Date.now() > deadline) {
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The message's recipients once `done` holds for them, asked every 20 ms; fails after 10 s. */
async function deliveriesWhen(
  t: TestServer,
  inboxId: string,
  messageId: string,
  done: (deliveries: Awaited<ReturnType<typeof deliveriesOf>>) => boolean,
) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const deliveries = await deliveriesOf(t, inboxId, messageId);
    if (done(deliveries)) {
      return deliveries;
    }
    if (Date.now() > deadline) {
      throw new Error(`The recipients never got there: ${JSON.stringify(deliveries)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The stored message without the lines Postfix puts on top when it delivers. */
const headerBlock = (raw: Buffer) => raw.subarray(0, raw.indexOf("\r\n\r\n") + 2).toString("latin1");

describe("outbound mail through a relay", () => {
  it("delivers MIME with parts, attachment, custom and reply headers, DKIM-signed, once per recipient", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const dkimRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;
    const { t, events } = await serverWithRelay({
      dkim: {
        domain: "pigeonhole.test",
        selector: "test",
        privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      },
    });
    const sender = await newInbox(t);
    const tag = unique();
    const [to, cc, bcc] = [`ada-${tag}@example.org`, `grace-${tag}@example.org`, `hidden-${tag}@example.net`];
    const attachment = randomBytes(3000);
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sender } },
        body: {
          to,
          cc: [cc],
          bcc: [bcc],
          subject: "Quarterly numbers: naïve café",
          text: "Plain text body",
          html: "<p>HTML body</p>",
          headers: {
            "X-Campaign": "q3",
            "In-Reply-To": "<earlier@example.org>",
            References: "<first@example.org> <earlier@example.org>",
          },
          attachments: [{ filename: "numbers.bin", content: attachment.toString("base64") }],
        },
      }),
    );

    for (const address of [to, cc, bcc]) {
      const [message, ...more] = await deliveredTo(address, 1);
      expect(more).toEqual([]);
      if (!message) {
        throw new Error(`Nothing delivered to ${address}.\n${await relay.log()}`);
      }
      const parsed = await simpleParser(message.raw);
      expect(parsed.messageId).toBe(sent.message_id);
      expect(parsed.from?.value[0]?.address).toBe(sender);
      expect(parsed.subject).toBe("Quarterly numbers: naïve café");
      expect(parsed.text?.trim()).toBe("Plain text body");
      expect(parsed.html).toContain("<p>HTML body</p>");
      expect(parsed.inReplyTo).toBe("<earlier@example.org>");
      expect(parsed.references).toEqual(["<first@example.org>", "<earlier@example.org>"]);
      expect(parsed.headers.get("x-campaign")).toBe("q3");
      expect(message.raw.toString("latin1")).toMatch(/Content-Type: multipart\/alternative/i);
      expect(parsed.attachments.map((a) => [a.filename, Buffer.compare(a.content, attachment)])).toEqual([
        ["numbers.bin", 0],
      ]);
      // The hidden recipient is on no copy (the relay names the envelope recipient on top of its own).
      expect(headerBlock(message.raw)).not.toMatch(/^bcc:/im);
      if (address !== bcc) {
        expect(message.raw.toString("latin1")).not.toContain(bcc);
      }
      const dkim = await dkimVerify(message.raw, {
        resolver: async (name, type) => {
          if (name === "test._domainkey.pigeonhole.test" && type === "TXT") {
            return [[dkimRecord]];
          }
          throw Object.assign(new Error(`No ${type} record for ${name}`), { code: "ENOTFOUND" });
        },
      });
      expect(dkim.results.map((result) => [result.signingDomain, result.status.result])).toEqual([
        ["pigeonhole.test", "pass"],
      ]);
    }

    const delivered = await events(3);
    expect(delivered.map((event) => event.event_type)).toEqual(Array(3).fill("message.delivered"));
    expect(
      delivered.flatMap((event) => (event.event_type === "message.delivered" ? event.delivery.recipients : [])).sort(),
    ).toEqual([to, cc, bcc].sort());
    const deliveries = await deliveriesOf(t, sender, sent.message_id);
    expect(deliveries.map((d) => [d.address, d.status, d.attempts])).toEqual([
      [to, "delivered", 1],
      [cc, "delivered", 1],
      [bcc, "delivered", 1],
    ]);
    for (const delivery of deliveries) {
      expect(delivery.smtp_reply).toMatch(/^250 /);
    }
  });

  it("retries a temporary refusal: message.delayed, then one delivery and message.delivered", async () => {
    const { t, events, control } = await serverWithRelay();
    const sender = await newInbox(t);
    const address = `busy-${unique()}@example.org`;
    await relay.setRecipientReply(address, "451 4.7.1 Try again later");
    // Time stands still but for the test's moves, so the retry comes at the delay and not a millisecond before.
    await control.clock.set({ frozen: true });
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sender } },
        body: { to: address, subject: "Later", text: "Hello" },
      }),
    );
    const [delayed] = await events(1);
    if (delayed?.event_type !== "message.delayed") {
      throw new Error(`Expected message.delayed first, got ${JSON.stringify(delayed)}`);
    }
    expect(delayed.delay.message_id).toBe(sent.message_id);
    expect(delayed.delay.recipients).toEqual([{ address, status: expect.stringMatching(/^451 4\.7\.1 /) }]);
    const [firstDelay = 0] = DEFAULT_SMTP_RETRY_DELAYS_MS;
    expect(Date.parse(delayed.delay.next_attempt_at) - Date.parse(delayed.delay.timestamp)).toBe(firstDelay);
    await relay.setRecipientReply(address, null);
    const [whileDelayed] = await deliveriesOf(t, sender, sent.message_id);
    expect(whileDelayed).toMatchObject({ address, status: "delayed", attempts: 1 });
    expect(whileDelayed?.smtp_reply).toMatch(/^451 /);

    // A millisecond short of the delay, the recipient waits; at the delay, it is tried again. The wait in between
    // outlasts the relay connection's idle time (1 s): the relay reads its changed policy on a new connection only.
    await control.clock.advance(firstDelay - 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await deliveriesOf(t, sender, sent.message_id)).toMatchObject([{ status: "delayed", attempts: 1 }]);
    await control.clock.advance(1);
    const [, delivered] = await events(2);
    expect(delivered?.event_type).toBe("message.delivered");
    expect(await deliveredTo(address, 1)).toHaveLength(1);
    const [afterwards] = await deliveriesOf(t, sender, sent.message_id);
    expect(afterwards).toMatchObject({ address, status: "delivered", attempts: 2 });
    // Nothing more: not a second delivery, not a second event.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await deliveredTo(address, 2, 0)).toHaveLength(1);
    expect(await events(2)).toHaveLength(2);
  });

  it("bounces on a permanent refusal with the relay's reply, and when temporary refusals outlast the retries", async () => {
    const { t, events, control } = await serverWithRelay();
    const sender = await newInbox(t);
    const [unknown, busy] = [`nobody-${unique()}@example.org`, `full-${unique()}@example.org`];
    await relay.setRecipientReply(unknown, "550 5.1.1 User unknown");
    await relay.setRecipientReply(busy, "452 4.2.2 Mailbox full");
    const first = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sender } },
        body: { to: unknown, text: "Hello" },
      }),
    );
    const [bounced] = await events(1);
    if (bounced?.event_type !== "message.bounced") {
      throw new Error(`Expected message.bounced, got ${JSON.stringify(bounced)}`);
    }
    expect(bounced.bounce).toMatchObject({ message_id: first.message_id, type: "Permanent", sub_type: "General" });
    expect(bounced.bounce.recipients).toEqual([{ address: unknown, status: expect.stringMatching(/^550 5\.1\.1 /) }]);
    expect(await deliveriesOf(t, sender, first.message_id)).toMatchObject([
      { address: unknown, status: "bounced", attempts: 1 },
    ]);

    const second = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sender } },
        body: { to: busy, text: "Hello" },
      }),
    );
    const [, delayed] = await events(2);
    expect(delayed?.event_type).toBe("message.delayed");
    // Every delay of the default schedule: the clock passes it, and the recipient is tried once more.
    for (const [retry, delay] of DEFAULT_SMTP_RETRY_DELAYS_MS.entries()) {
      await control.clock.advance(delay);
      await deliveriesWhen(t, sender, second.message_id, ([only]) => (only?.attempts ?? 0) >= retry + 2);
    }
    const [, , gaveUp] = await events(3);
    if (gaveUp?.event_type !== "message.bounced") {
      throw new Error(`Expected message.bounced, got ${JSON.stringify(gaveUp)}`);
    }
    expect(gaveUp.bounce).toMatchObject({ message_id: second.message_id, type: "Transient" });
    expect(gaveUp.bounce.recipients).toEqual([{ address: busy, status: expect.stringMatching(/^452 /) }]);
    expect(await deliveriesOf(t, sender, second.message_id)).toMatchObject([
      { address: busy, status: "bounced", attempts: DEFAULT_SMTP_RETRY_DELAYS_MS.length + 1 },
    ]);
    expect((await relay.delivered()).filter((m) => m.recipient === unknown || m.recipient === busy)).toEqual([]);
  });

  it("keeps mail to outside recipients, sending nothing, when no relay is configured", async () => {
    const t = await startTestServer();
    cleanups.push(() => t.server.close());
    const sender = await newInbox(t);
    const address = `kept-${unique()}@example.org`;
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sender } },
        body: { to: address, text: "Hello" },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await deliveriesOf(t, sender, sent.message_id)).toMatchObject([
      { address, status: "captured", attempts: 0 },
    ]);
    expect(await deliveredTo(address, 1, 0)).toEqual([]);
  });

  it("answers mail from outside in its thread: the reply goes back through the relay", async () => {
    const { t, events } = await serverWithRelay({ smtpPort: 0 });
    const inbox = await newInbox(t, `desk-${unique()}`);
    await relay.routeDomain("pigeonhole.test", t.server.smtp?.port ?? 0);
    const outsider = `customer-${unique()}@example.org`;
    const sent = await swaks([
      "--server",
      `127.0.0.1:${relay.port}`,
      "--from",
      outsider,
      "--to",
      inbox,
      "--header",
      "Subject: Where is my order?",
      "--body",
      "It has not arrived.",
    ]);
    expect(sent.exitCode, sent.output).toBe(0);
    const deadline = Date.now() + 15_000;
    let received: { message_id: string; thread_id: string } | undefined;
    while (!received && Date.now() < deadline) {
      const list = expectData(
        await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inbox } } }),
      );
      received = list.messages[0];
      if (!received) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    if (!received) {
      throw new Error(`The message from outside did not arrive.\n${await relay.log()}`);
    }
    const reply = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages/{message_id}/reply", {
        params: { path: { inbox_id: inbox, message_id: received.message_id } },
        body: { text: "It ships today." },
      }),
    );
    expect(reply.thread_id).toBe(received.thread_id);
    const [answer] = await deliveredTo(outsider, 1);
    if (!answer) {
      throw new Error(`The reply did not come back.\n${await relay.log()}`);
    }
    const parsed = await simpleParser(answer.raw);
    expect(parsed.messageId).toBe(reply.message_id);
    expect(parsed.subject).toBe("Re: Where is my order?");
    expect(parsed.inReplyTo).toBe(received.message_id);
    expect([parsed.references ?? []].flat()).toContain(received.message_id);
    expect(parsed.text?.trim()).toBe("It ships today.");
    const [delivered] = await events(1);
    expect(delivered?.event_type).toBe("message.delivered");
  });

  it("logs in to a relay that requires it", async () => {
    const secured = await startRelay({ user: "pigeonhole", password: "s3cret:/@" });
    cleanups.push(() => secured.stop());
    const t = await startTestServer({ smtpRelay: secured.url });
    cleanups.push(() => t.server.close());
    const sender = await newInbox(t);
    const address = `auth-${unique()}@example.org`;
    expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sender } },
        body: { to: address, text: "Hello" },
      }),
    );
    const [message] = await secured.waitForDelivered(1);
    expect(message?.recipient).toBe(address);
  });
});
