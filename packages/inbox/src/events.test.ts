import { describe, expect, it } from "vitest";
import { eventStreamUrl, reconnectDelay } from "./events.js";
import { createInboxClient, PigeonholeError } from "./index.js";

describe("eventStreamUrl", () => {
  it("is /v0/ws on the service's address, ws for http and wss for https, with the key in the query", () => {
    expect(eventStreamUrl("http://127.0.0.1:4010", "pk 1&2")).toBe("ws://127.0.0.1:4010/v0/ws?api_key=pk+1%262");
    expect(eventStreamUrl("https://mail.example.com/", "k")).toBe("wss://mail.example.com/v0/ws?api_key=k");
    expect(eventStreamUrl("https://example.com/inbox-api//", "k")).toBe("wss://example.com/inbox-api/v0/ws?api_key=k");
  });
});

describe("reconnectDelay", () => {
  it("grows from about half a second, doubling, to at most 30 seconds, half of it random", () => {
    expect(reconnectDelay(0, () => 0)).toBe(250);
    expect(reconnectDelay(0, () => 1)).toBe(500);
    expect(reconnectDelay(1, () => 0)).toBe(500);
    expect(reconnectDelay(3, () => 1)).toBe(4_000);
    expect(reconnectDelay(6, () => 1)).toBe(30_000);
    expect(reconnectDelay(10_000, () => 0.5)).toBe(22_500);
  });
});

describe("events()", () => {
  it("asks for a WebSocket class where the runtime has none, before connecting", async () => {
    const inbox = createInboxClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9" });
    const events = inbox.events({ WebSocket: undefined });
    const original = globalThis.WebSocket;
    Reflect.deleteProperty(globalThis, "WebSocket");
    try {
      const error = await events[Symbol.asyncIterator]()
        .next()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PigeonholeError);
      expect(String(error)).toContain("pass { WebSocket } to events()");
    } finally {
      globalThis.WebSocket = original;
    }
  });
});
