import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { describe, expect, it } from "vitest";
import type { MessageReceivedEvent, MessageSentEvent } from "./index.js";
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationFailure } from "./webhooks.js";

const secret = `whsec_${btoa("pigeonhole-test-signing-key-32by")}`;
const otherSecret = `whsec_${btoa("another-signing-key-of-32-bytes!")}`;
const sentAt = new Date("2026-11-22T09:30:00.000Z");
const sentAtSeconds = String(Math.floor(sentAt.getTime() / 1000));

const receivedEvent: MessageReceivedEvent = {
  type: "event",
  event_type: "message.received",
  event_id: "evt_2Zk9",
  message: {
    inbox_id: "support@pigeonhole.test",
    thread_id: "thd_7Hq2mZ4kP9xR3vLc",
    message_id: "<0b5c8e2f@pigeonhole.test>",
    labels: ["received"],
    timestamp: "2026-11-22T09:29:58.000Z",
    from: "Ada <ada@pigeonhole.test>",
    to: ["support@pigeonhole.test"],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: "Héllo ✉️",
    preview: "Hi there",
    text: "Hi there",
    html: null,
    attachments: [],
    in_reply_to: null,
    references: [],
    headers: {},
    size: 512,
    deliveries: [],
    created_at: "2026-11-22T09:29:58.000Z",
    updated_at: "2026-11-22T09:29:58.000Z",
  },
  thread: {
    thread_id: "thd_7Hq2mZ4kP9xR3vLc",
    inbox_id: "support@pigeonhole.test",
    subject: "Héllo ✉️",
    participants: ["ada@pigeonhole.test", "support@pigeonhole.test"],
    labels: ["received"],
    message_count: 1,
    last_message_at: "2026-11-22T09:29:58.000Z",
    created_at: "2026-11-22T09:29:58.000Z",
    updated_at: "2026-11-22T09:29:58.000Z",
    timestamp: "2026-11-22T09:29:58.000Z",
    received_timestamp: "2026-11-22T09:29:58.000Z",
    sent_timestamp: null,
    senders: ["Ada <ada@pigeonhole.test>"],
    recipients: ["support@pigeonhole.test"],
    last_message_id: "<0b5c8e2f@pigeonhole.test>",
    preview: "Hi there",
    size: 512,
  },
};
const body = JSON.stringify(receivedEvent);

/** The headers of a delivery signed by the `standardwebhooks` library. */
function standardDelivery(payload = body, id = "msg_1", key = secret) {
  return {
    "webhook-id": id,
    "webhook-timestamp": sentAtSeconds,
    "webhook-signature": new StandardWebhook(key).sign(id, sentAt, payload),
  };
}

/** The headers of a delivery signed by the `svix` library. */
function svixDelivery(payload = body, id = "msg_1", key = secret) {
  return {
    "svix-id": id,
    "svix-timestamp": sentAtSeconds,
    "svix-signature": new SvixWebhook(key).sign(id, sentAt, payload),
  };
}

const at = (secondsAfterSending: number) => ({ now: sentAt.getTime() + secondsAfterSending * 1000 });

async function failure(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe("verifyWebhook accepts", () => {
  it("a delivery signed by the standardwebhooks library", async () => {
    await expect(verifyWebhook(body, standardDelivery(), secret, at(0))).resolves.toEqual(receivedEvent);
  });

  it("a delivery signed by the svix library, under svix-* headers", async () => {
    await expect(verifyWebhook(body, svixDelivery(), secret, at(0))).resolves.toEqual(receivedEvent);
  });

  it("Fetch Headers, and header names in any case", async () => {
    const headers = new Headers(standardDelivery());
    await expect(verifyWebhook(body, headers, secret, at(0))).resolves.toEqual(receivedEvent);
    const shouting = Object.fromEntries(Object.entries(standardDelivery()).map(([k, v]) => [k.toUpperCase(), v]));
    await expect(verifyWebhook(body, shouting, secret, at(0))).resolves.toEqual(receivedEvent);
  });

  it("the raw body as bytes, a Buffer or an ArrayBuffer", async () => {
    const bytes = new TextEncoder().encode(body);
    await expect(verifyWebhook(bytes, standardDelivery(), secret, at(0))).resolves.toEqual(receivedEvent);
    await expect(verifyWebhook(Buffer.from(body), standardDelivery(), secret, at(0))).resolves.toEqual(receivedEvent);
    await expect(verifyWebhook(bytes.buffer, standardDelivery(), secret, at(0))).resolves.toEqual(receivedEvent);
  });

  it("a secret without the whsec_ prefix", async () => {
    await expect(verifyWebhook(body, standardDelivery(), secret.slice(6), at(0))).resolves.toEqual(receivedEvent);
  });

  it("any one matching signature among several, as during a secret rotation", async () => {
    const headers = standardDelivery();
    const old = standardDelivery(body, "msg_1", otherSecret)["webhook-signature"];
    headers["webhook-signature"] = `v1,bm90IGEgc2lnbmF0dXJl v2,whatever ${old} ${headers["webhook-signature"]}`;
    await expect(verifyWebhook(body, headers, secret, at(0))).resolves.toEqual(receivedEvent);
    await expect(verifyWebhook(body, headers, otherSecret, at(0))).resolves.toEqual(receivedEvent);
  });

  it("the webhook-* set when svix-* headers are present too", async () => {
    const headers = { ...svixDelivery(body, "msg_other"), ...standardDelivery() };
    headers["svix-signature"] = "v1,AAAA";
    await expect(verifyWebhook(body, headers, secret, at(0))).resolves.toEqual(receivedEvent);
  });

  it("a timestamp within the tolerance either way", async () => {
    await expect(verifyWebhook(body, standardDelivery(), secret, at(300))).resolves.toEqual(receivedEvent);
    await expect(verifyWebhook(body, standardDelivery(), secret, at(-300))).resolves.toEqual(receivedEvent);
    await expect(
      verifyWebhook(body, standardDelivery(), secret, { ...at(3_000), toleranceSeconds: 3_600 }),
    ).resolves.toEqual(receivedEvent);
  });

  it("every event type of the spec, returned typed", async () => {
    const sent: MessageSentEvent = {
      type: "event",
      event_type: "message.sent",
      event_id: "evt_3",
      send: {
        inbox_id: "support@pigeonhole.test",
        thread_id: "thd_1",
        message_id: "<m@pigeonhole.test>",
        timestamp: "2026-11-22T09:30:00.000Z",
        recipients: ["ada@pigeonhole.test"],
      },
    };
    const payload = JSON.stringify(sent);
    const event = await verifyWebhook(payload, standardDelivery(payload), secret, at(0));
    expect(event.event_type).toBe("message.sent");
    if (event.event_type === "message.sent") {
      expect(event.send.recipients).toEqual(["ada@pigeonhole.test"]);
    }
  });
});

describe("verifyWebhook rejects", () => {
  const cases: [string, () => Promise<unknown>, WebhookVerificationFailure, string][] = [
    [
      "a body changed after signing",
      () => verifyWebhook(body.replace("Hi there", "Pay me"), standardDelivery(), secret, at(0)),
      "invalid_signature",
      "No webhook signature matches",
    ],
    [
      "re-serialised JSON instead of the raw body",
      () => verifyWebhook(JSON.stringify(receivedEvent, null, 2), standardDelivery(), secret, at(0)),
      "invalid_signature",
      "pass the raw request body",
    ],
    [
      "a signature made with another secret",
      () => verifyWebhook(body, standardDelivery(), otherSecret, at(0)),
      "invalid_signature",
      "check the secret",
    ],
    [
      "a signature for another message id",
      () => verifyWebhook(body, { ...standardDelivery(), "webhook-id": "msg_2" }, secret, at(0)),
      "invalid_signature",
      "No webhook signature matches",
    ],
    [
      "only signatures of other versions",
      () =>
        verifyWebhook(
          body,
          {
            ...standardDelivery(),
            "webhook-signature": standardDelivery()["webhook-signature"].replace("v1,", "v1a,"),
          },
          secret,
          at(0),
        ),
      "invalid_signature",
      "No webhook signature matches",
    ],
    [
      "a delivery older than 5 minutes",
      () => verifyWebhook(body, standardDelivery(), secret, at(301)),
      "timestamp_too_old",
      "Webhook timestamp is 301 s old, more than the 300 s allowed",
    ],
    [
      "a delivery more than 5 minutes in the future",
      () => verifyWebhook(body, standardDelivery(), secret, at(-301)),
      "timestamp_too_new",
      "Webhook timestamp is 301 s in the future",
    ],
    [
      "a delivery older than a custom tolerance",
      () => verifyWebhook(body, standardDelivery(), secret, { ...at(11), toleranceSeconds: 10 }),
      "timestamp_too_old",
      "more than the 10 s allowed",
    ],
    [
      "a timestamp that is not Unix seconds",
      () => verifyWebhook(body, { ...standardDelivery(), "webhook-timestamp": "2026-11-22T09:30:00Z" }, secret, at(0)),
      "invalid_timestamp",
      'Invalid webhook timestamp "2026-11-22T09:30:00Z"',
    ],
    [
      "missing headers",
      () => verifyWebhook(body, { "webhook-id": "msg_1" }, secret, at(0)),
      "missing_header",
      "Missing webhook header webhook-timestamp, webhook-signature (and no complete svix-* set).",
    ],
    [
      "a secret that is not base64",
      () => verifyWebhook(body, standardDelivery(), "whsec_not*base64!", at(0)),
      "invalid_secret",
      "Invalid webhook secret",
    ],
    [
      "a signed body that is not JSON",
      () => verifyWebhook("plain text", standardDelivery("plain text"), secret, at(0)),
      "invalid_payload",
      "not valid JSON",
    ],
    [
      "a signed body that is not an event",
      () => verifyWebhook("[1,2]", standardDelivery("[1,2]"), secret, at(0)),
      "invalid_payload",
      "not an event",
    ],
  ];

  it.each(cases)("%s", async (_name, verify, reason, message) => {
    const error = await failure(verify());
    expect(error.reason).toBe(reason);
    expect(error.message).toContain(message);
    expect(error.name).toBe("WebhookVerificationError");
  });

  it("a negative tolerance, as a programming error", async () => {
    await expect(verifyWebhook(body, standardDelivery(), secret, { toleranceSeconds: -1 })).rejects.toBeInstanceOf(
      RangeError,
    );
  });
});

describe("agreement with the standardwebhooks library", () => {
  const reference = new StandardWebhook(secret);
  /** A delivery signed just now, since the reference checks timestamps against the real clock. */
  const signedNow = (): Record<string, string> => {
    const now = new Date();
    return {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": reference.sign("msg_1", now, body),
    };
  };
  const variants: [string, string, (headers: Record<string, string>) => Record<string, string>, boolean][] = [
    ["the original delivery", body, (h) => h, true],
    ["a tampered body", `${body} `, (h) => h, false],
    ["a tampered id", body, (h) => ({ ...h, "webhook-id": "msg_9" }), false],
    [
      "a truncated signature",
      body,
      (h) => ({ ...h, "webhook-signature": (h["webhook-signature"] ?? "").slice(0, -4) }),
      false,
    ],
    [
      "an hour-old timestamp",
      body,
      (h) => ({ ...h, "webhook-timestamp": String(Number(h["webhook-timestamp"]) - 3600) }),
      false,
    ],
  ];

  it.each(variants)("gives the same verdict for %s", async (_name, payload, change, valid) => {
    const headers = change(signedNow());
    let theirs: boolean;
    try {
      reference.verify(payload, headers);
      theirs = true;
    } catch {
      theirs = false;
    }
    const ours = await verifyWebhook(payload, headers, secret).then(
      () => true,
      () => false,
    );
    expect(theirs).toBe(valid);
    expect(ours).toBe(valid);
  });
});
