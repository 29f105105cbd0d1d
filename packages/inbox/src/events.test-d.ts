import { describe, expectTypeOf, it } from "vitest";
import {
  createInboxClient,
  type EventSocketConstructor,
  EventStreamError,
  type EventStreamMessage,
  type EventsOptions,
  type EventType,
  type LiveEvents,
  type MessageBouncedEvent,
  type MessageDelayedEvent,
  type MessageDeliveredEvent,
  type MessageReceivedEvent,
  type PigeonholeError,
  type WebhookEvent,
} from "./index.js";

const inbox = createInboxClient({ apiKey: "k" });

describe("events()", () => {
  it("is an async iterable of the webhook event union, narrowed by event_type", async () => {
    expectTypeOf(inbox.events()).toEqualTypeOf<LiveEvents>();
    expectTypeOf(inbox.events()).toExtend<AsyncIterable<WebhookEvent>>();
    expectTypeOf(inbox.events().ready()).toEqualTypeOf<Promise<void>>();
    for await (const event of inbox.events({ event_types: ["message.received"] })) {
      if (event.event_type === "message.received") {
        expectTypeOf(event).toEqualTypeOf<MessageReceivedEvent>();
        expectTypeOf(event.message.subject).toEqualTypeOf<string | null>();
      }
    }
  });

  it("yields the relay's outcomes too: delivered, delayed and bounced", async () => {
    for await (const event of inbox.events({
      event_types: ["message.delivered", "message.delayed", "message.bounced"],
    })) {
      switch (event.event_type) {
        case "message.delivered":
          expectTypeOf(event).toEqualTypeOf<MessageDeliveredEvent>();
          expectTypeOf(event.delivery.recipients).toEqualTypeOf<string[]>();
          break;
        case "message.delayed":
          expectTypeOf(event).toEqualTypeOf<MessageDelayedEvent>();
          expectTypeOf(event.delay.next_attempt_at).toEqualTypeOf<string>();
          break;
        case "message.bounced":
          expectTypeOf(event).toEqualTypeOf<MessageBouncedEvent>();
          expectTypeOf<(typeof event.bounce.recipients)[number]["status"]>().toEqualTypeOf<string>();
          break;
      }
    }
  });

  it("takes the subscription's filters, where to resume, a signal and a WebSocket class", () => {
    expectTypeOf<EventsOptions["event_types"]>().toEqualTypeOf<EventType[] | undefined>();
    expectTypeOf<EventsOptions["inbox_ids"]>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<EventsOptions["after"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<EventsOptions["signal"]>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf<typeof WebSocket>().toExtend<EventSocketConstructor>();
    // @ts-expect-error: not an event type
    inbox.events({ event_types: ["message.deleted"] });
    // @ts-expect-error: not an option
    inbox.events({ inbox_id: "support@pigeonhole.test" });
  });

  it("stays on the clients withOptions derives", () => {
    expectTypeOf(inbox.withOptions({ timeout: 1_000 }).events).toEqualTypeOf(inbox.events);
  });
});

describe("EventStreamError", () => {
  it("is a PigeonholeError with the stream's code, type and field", () => {
    const error = new EventStreamError({
      type: "not_found_error",
      message: "m",
      details: { field: "after", code: "X" },
    });
    expectTypeOf(error).toExtend<PigeonholeError>();
    expectTypeOf(error.code).toEqualTypeOf<string>();
    expectTypeOf(error.type).toEqualTypeOf<string>();
    expectTypeOf(error.field).toEqualTypeOf<string | null>();
  });

  it("leaves the message union of the stream exported by its own name", () => {
    expectTypeOf<Extract<EventStreamMessage, { type: "error" }>["error"]["details"]["code"]>().toEqualTypeOf<string>();
  });
});
