import { randomBytes } from "node:crypto";
import type { AddressInfo, Socket } from "node:net";
import { createServer } from "node:net";
import type {
  MessageBouncedEvent,
  MessageComplainedEvent,
  MessageDelayedEvent,
  MessageDeliveredEvent,
} from "@pigeonhole/inbox-types";
import { afterEach, describe, expect, it } from "vitest";
import { connectStream } from "../../../test/support/event-stream-client.ts";
import { testControlOf } from "../../../test/support/test-control-requests.ts";
import type { InboxClient } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import type { ServerOptions } from "../../options.ts";
import { magicAddressOutcome, SIMULATOR_DOMAIN } from "./simulated-outcome.ts";

// Mail to the magic addresses gets its outcome from the server itself whenever test control is on, through the same
// per-recipient statuses and events as relayed mail, whether or not a relay is configured, and never reaches the
// relay. With test control off they are outside addresses like any other.

type OutcomeEvent = MessageDeliveredEvent | MessageDelayedEvent | MessageBouncedEvent | MessageComplainedEvent;
const OUTCOME_TYPES = ["message.delivered", "message.delayed", "message.bounced", "message.complained"] as const;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

const magic = (local: string) => `${local}@${SIMULATOR_DOMAIN}`;
const unique = () => randomBytes(4).toString("hex");
const RETRY_MS = 400;

/** A TCP server where a relay would be that never answers, counting the connections made to it. */
async function silentRelay() {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  cleanups.push(async () => {
    for (const socket of sockets) {
      socket.destroy();
    }
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `smtp://127.0.0.1:${port}`, connections: () => connections };
}

/** The server as it runs, with a webhook and a live stream subscribed to every outcome event. */
async function simulating(options: Omit<ServerOptions, "limits" | "devKeys"> = {}) {
  const t = await startTestServer({ smtpRetryDelaysMs: [RETRY_MS, RETRY_MS], ...options });
  cleanups.push(() => t.server.close());
  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  expectData(await t.inbox.POST("/v0/webhooks", { body: { url: receiver.url, event_types: [...OUTCOME_TYPES] } }));
  const stream = await connectStream(t.server.inbox.url, t.server.inbox.apiKey);
  cleanups.push(async () => {
    stream.ws.close();
    await stream.closed;
  });
  stream.send({ type: "subscribe", event_types: [...OUTCOME_TYPES] });
  await stream.waitFor(1);
  const webhookEvents = async (count: number) =>
    (await receiver.waitFor(count, 15_000)).map((delivery) => JSON.parse(delivery.body) as OutcomeEvent);
  return { t, inbox: t.inbox, receiver, stream, webhookEvents };
}

async function send(inbox: InboxClient, inboxId: string, to: string[], idempotencyKey?: string) {
  return expectData(
    await inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inboxId }, header: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {} },
      body: { to, subject: "Simulated", text: "Hello." },
    }),
  );
}

async function newInbox(inbox: InboxClient) {
  return expectData(await inbox.POST("/v0/inboxes", { body: { username: `sender-${unique()}` } })).inbox_id;
}

async function deliveriesOf(inbox: InboxClient, inboxId: string, messageId: string) {
  const message = expectData(
    await inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: inboxId, message_id: messageId } },
    }),
  );
  return Object.fromEntries(message.deliveries.map((delivery) => [delivery.address, delivery]));
}

/** The recipients an outcome event names. */
function recipientsOf(event: OutcomeEvent): string[] {
  switch (event.event_type) {
    case "message.delivered":
      return event.delivery.recipients;
    case "message.delayed":
      return event.delay.recipients.map((r) => r.address);
    case "message.bounced":
      return event.bounce.recipients.map((r) => r.address);
    case "message.complained":
      return event.complaint.recipients;
  }
}

/** Event types per recipient, in the order given. */
function byRecipient(events: readonly OutcomeEvent[]): Record<string, string[]> {
  const sequences: Record<string, string[]> = {};
  for (const event of events) {
    for (const address of recipientsOf(event)) {
      sequences[address] = [...(sequences[address] ?? []), event.event_type];
    }
  }
  return sequences;
}

const EXPECTED_SEQUENCES = {
  [magic("delivered")]: ["message.delivered"],
  [magic("bounce")]: ["message.bounced"],
  [magic("delay")]: ["message.delayed", "message.delivered"],
  [magic("complaint")]: ["message.delivered", "message.complained"],
  [magic("anyone-else")]: ["message.delivered"],
};
const MAGIC_RECIPIENTS = Object.keys(EXPECTED_SEQUENCES);
const EXPECTED_EVENT_COUNT = Object.values(EXPECTED_SEQUENCES).flat().length;

/** Sends to every magic address and checks the statuses, replies, and events on the webhook and the stream. */
async function checkMagicOutcomes(setup: Awaited<ReturnType<typeof simulating>>, extraRecipients: string[] = []) {
  const { inbox, stream, webhookEvents } = setup;
  const sender = await newInbox(inbox);
  // Before the send: its first attempts may run before its answer arrives, and the retry is timed from them.
  const startedAt = Date.now();
  const sent = await send(inbox, sender, [...MAGIC_RECIPIENTS, ...extraRecipients]);

  const hooked = await webhookEvents(EXPECTED_EVENT_COUNT);
  // The live stream keeps the order in which the outcomes were committed.
  const streamed = (await stream.waitFor(1 + EXPECTED_EVENT_COUNT, 15_000)).slice(1) as unknown as OutcomeEvent[];
  expect(byRecipient(streamed)).toEqual(EXPECTED_SEQUENCES);
  // Webhook deliveries are concurrent, so only the delay, whose events are a retry apart, has a guaranteed order.
  const hookedSequences = byRecipient(hooked);
  expect(Object.keys(hookedSequences).sort()).toEqual([...MAGIC_RECIPIENTS].sort());
  for (const [address, expected] of Object.entries(EXPECTED_SEQUENCES)) {
    expect(hookedSequences[address]?.slice().sort(), address).toEqual(expected.slice().sort());
  }
  expect(hookedSequences[magic("delay")]).toEqual(["message.delayed", "message.delivered"]);
  expect(new Set(hooked.map((e) => e.event_id))).toEqual(new Set(streamed.map((e) => e.event_id)));
  // The delay waits for the retry schedule.
  expect(Date.now() - startedAt).toBeGreaterThanOrEqual(RETRY_MS - 50);
  for (const event of streamed) {
    const about =
      "delivery" in event
        ? event.delivery
        : "delay" in event
          ? event.delay
          : "bounce" in event
            ? event.bounce
            : event.complaint;
    expect(about).toMatchObject({ inbox_id: sender, message_id: sent.message_id, thread_id: sent.thread_id });
  }
  const bounced = streamed.find((e): e is MessageBouncedEvent => e.event_type === "message.bounced");
  expect(bounced?.bounce).toMatchObject({
    type: "Permanent",
    sub_type: "General",
    recipients: [{ address: magic("bounce"), status: expect.stringMatching(/^550 5\.1\.1 <bounce@/) }],
  });
  const delayed = streamed.find((e): e is MessageDelayedEvent => e.event_type === "message.delayed");
  expect(delayed?.delay.recipients).toEqual([
    { address: magic("delay"), status: expect.stringMatching(/^450 4\.2\.0 /) },
  ]);
  expect(Date.parse(delayed?.delay.next_attempt_at ?? "") - Date.parse(delayed?.delay.timestamp ?? "")).toBe(RETRY_MS);
  const complained = streamed.find((e): e is MessageComplainedEvent => e.event_type === "message.complained");
  expect(complained?.complaint).toMatchObject({ type: "abuse", recipients: [magic("complaint")] });

  const deliveries = await deliveriesOf(inbox, sender, sent.message_id);
  const accepted = expect.stringMatching(/^250 2\.0\.0 Ok: queued as [0-9A-F]{10}$/);
  expect(deliveries[magic("delivered")]).toMatchObject({ status: "delivered", smtp_reply: accepted, attempts: 1 });
  expect(deliveries[magic("anyone-else")]).toMatchObject({ status: "delivered", smtp_reply: accepted, attempts: 1 });
  expect(deliveries[magic("complaint")]).toMatchObject({ status: "delivered", smtp_reply: accepted, attempts: 1 });
  expect(deliveries[magic("delay")]).toMatchObject({ status: "delivered", smtp_reply: accepted, attempts: 2 });
  expect(deliveries[magic("bounce")]).toMatchObject({
    status: "bounced",
    smtp_reply: expect.stringMatching(/^550 /),
    attempts: 1,
  });
  return { sender, sent, deliveries };
}

describe("magic addresses", () => {
  it("names the outcome of each reserved address, and leaves other domains alone", () => {
    expect(magicAddressOutcome(magic("delivered"))).toBe("delivered");
    expect(magicAddressOutcome(magic("bounce"))).toBe("bounce");
    expect(magicAddressOutcome("Delay@Simulator.Pigeonhole.Test")).toBe("delay");
    expect(magicAddressOutcome(magic("complaint"))).toBe("complaint");
    expect(magicAddressOutcome(magic("bounce+tag"))).toBe("delivered");
    expect(magicAddressOutcome("bounce@example.com")).toBeUndefined();
    expect(magicAddressOutcome("bounce@sub.simulator.pigeonhole.test")).toBeUndefined();
  });

  it("produces each documented outcome without a relay, beside local and captured recipients", async () => {
    const setup = await simulating();
    const local = await newInbox(setup.inbox);
    const outside = `someone-${unique()}@example.org`;
    const { deliveries } = await checkMagicOutcomes(setup, [local, outside]);
    expect(deliveries[local]).toMatchObject({ status: "local", smtp_reply: null, attempts: 0 });
    expect(deliveries[outside]).toMatchObject({ status: "captured", smtp_reply: null, attempts: 0 });
    const received = expectData(
      await setup.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: local } } }),
    );
    expect(received.messages).toHaveLength(1);
  });

  it("never contacts a configured relay for them, while other recipients go to the relay", async () => {
    const relay = await silentRelay();
    // A tenth of the claim: each relay command gives up after 300 ms.
    const setup = await simulating({ smtpRelay: relay.url, smtpRelayClaimMs: 3_000 });
    await checkMagicOutcomes(setup);
    expect(relay.connections()).toBe(0);

    // The relay is really wired: an ordinary recipient is tried there (and delayed, as it never answers).
    const sender = await newInbox(setup.inbox);
    const outside = `someone-${unique()}@example.org`;
    const sent = await send(setup.inbox, sender, [outside]);
    const deadline = Date.now() + 10_000;
    let status = "queued";
    while (status === "queued" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await deliveriesOf(setup.inbox, sender, sent.message_id))[outside]?.status ?? "missing";
    }
    expect(status).toBe("delayed");
    expect(relay.connections()).toBeGreaterThan(0);
  });

  it("raises no second outcome when a send is replayed with its idempotency key", async () => {
    const setup = await simulating();
    const sender = await newInbox(setup.inbox);
    const key = `replay-${unique()}`;
    const recipients = [magic("bounce"), magic("complaint")];
    const first = await send(setup.inbox, sender, recipients, key);
    await setup.webhookEvents(3);
    const replay = await send(setup.inbox, sender, recipients, key);
    expect(replay).toEqual(first);
    // Long enough for the workers to have found anything new (they are woken at once, and poll besides).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(setup.receiver.deliveries).toHaveLength(3);
    expect(setup.stream.messages).toHaveLength(4);
    const deliveries = await deliveriesOf(setup.inbox, sender, first.message_id);
    expect(Object.values(deliveries).map((d) => [d.address, d.status, d.attempts])).toEqual([
      [magic("bounce"), "bounced", 1],
      [magic("complaint"), "delivered", 1],
    ]);
    const sent = expectData(
      await setup.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: sender } } }),
    );
    expect(sent.messages).toHaveLength(1);
  });

  it("takes a mail fault once per outside recipient, at the send, and the attempt keeps what the send decided", async () => {
    const setup = await simulating();
    const control = testControlOf(setup.t.server);
    const faulty = `ada-${unique()}@faulty.example`;
    // Two uses: were the attempt to ask again rather than keep the send's decision, it would take the second.
    const fault = await control.addFault({
      target: "mail",
      match: { to: faulty },
      times: 2,
      action: { type: "bounce" },
    });
    const sender = await newInbox(setup.inbox);
    const local = await newInbox(setup.inbox);
    const sent = await send(setup.inbox, sender, [faulty, local]);
    const [event] = await setup.webhookEvents(1);
    expect(event?.event_type).toBe("message.bounced");
    expect((await deliveriesOf(setup.inbox, sender, sent.message_id))[faulty]?.status).toBe("bounced");
    expect((await control.fault(fault.fault_id)).body).toMatchObject({ hits: 1, remaining: 1 });
  });
});

describe("magic addresses with test control off", () => {
  it("are outside addresses like any other: captured, never simulated", async () => {
    const setup = await simulating({ testControl: false });
    expect(setup.t.server.testControl).toBeNull();
    const sender = await newInbox(setup.inbox);
    const sent = await send(setup.inbox, sender, MAGIC_RECIPIENTS);
    const deliveries = await deliveriesOf(setup.inbox, sender, sent.message_id);
    for (const address of MAGIC_RECIPIENTS) {
      expect(deliveries[address], address).toMatchObject({ status: "captured", smtp_reply: null, attempts: 0 });
    }
    // Longer than a simulated outcome and its delayed retry take with test control on.
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS + 600));
    expect(setup.receiver.deliveries).toEqual([]);
    expect(setup.stream.messages).toHaveLength(1);
    const after = await deliveriesOf(setup.inbox, sender, sent.message_id);
    expect(Object.values(after).map((d) => d.status)).toEqual(MAGIC_RECIPIENTS.map(() => "captured"));
  });
});
