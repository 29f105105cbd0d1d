import type { AgentMail } from "agentmail";
import { describe, expect, it } from "vitest";
import { expectData, inboxClient } from "../../support/test-server.ts";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

type StreamMessage = AgentMail.Subscribed | AgentMail.MessageReceivedEvent | { type?: string; eventType?: string };

/** The messages a socket receives, and a wait for the first one (from `from` on) that matches. */
function received(socket: { on(event: "message", callback: (message: StreamMessage) => void): void }) {
  const messages: StreamMessage[] = [];
  const waiters: (() => void)[] = [];
  socket.on("message", (message) => {
    messages.push(message);
    for (const wake of waiters.splice(0)) {
      wake();
    }
  });
  return async (matches: (message: StreamMessage) => boolean): Promise<StreamMessage> => {
    for (;;) {
      const found = messages.find(matches);
      if (found) {
        return found;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
}

describe("websockets.connect through the official agentmail SDK", () => {
  it("connects at the base address's /v0, subscribes and receives the pod's events", async () => {
    const { sdk, apiKey } = await served.newPod();
    const sender = await sdk.inboxes.create({ username: "ws-sender" });
    const receiver = await sdk.inboxes.create({ username: "ws-receiver" });
    const socket = await sdk.websockets.connect({ reconnectAttempts: 0, connectionTimeoutInSeconds: 5 });
    try {
      const next = received(socket);
      await socket.waitForOpen();
      socket.sendSubscribe({ type: "subscribe", eventTypes: ["message.received"], inboxIds: [receiver.inboxId] });
      await next((message) => message.type === "subscribed");

      const client = inboxClient(served.server.inbox.url, apiKey);
      const sent = expectData(
        await client.POST("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: sender.inboxId } },
          body: { to: [receiver.inboxId], subject: "Over the socket", text: "Hi." },
        }),
      );
      const event = await next((message) => message.type === "event");
      // The SDK hands over its own camelCase form when the event matches its types, else the wire form as it came.
      expect(event).toSatisfy(
        (delivered: StreamMessage) =>
          JSON.stringify(delivered).includes(`"${sent.message_id}"`) &&
          /"event_?[tT]ype":"message\.received"/.test(JSON.stringify(delivered)),
      );
    } finally {
      socket.close();
    }
  });

  it("takes the key as api_key on /v0, as a browser sends it, and refuses a wrong one", async () => {
    const { apiKey } = await served.newPod();
    const base = served.server.inbox.url.replace(/^http/, "ws");
    const socket = new WebSocket(`${base}/v0?api_key=${encodeURIComponent(apiKey)}`);
    const first = new Promise<string>((resolve, reject) => {
      socket.addEventListener("message", (event) => resolve(String(event.data)));
      socket.addEventListener("error", () => reject(new Error("The stream refused the connection.")));
    });
    await new Promise((resolve) => socket.addEventListener("open", resolve));
    socket.send(JSON.stringify({ type: "subscribe" }));
    expect(JSON.parse(await first)).toMatchObject({ type: "subscribed" });
    socket.close();

    const refused = new WebSocket(`${base}/v0?api_key=ph_inbox_wrong`);
    await expect(
      new Promise((resolve, reject) => {
        refused.addEventListener("open", resolve);
        refused.addEventListener("error", () => reject(new Error("refused")));
      }),
    ).rejects.toThrow("refused");
  });

  it("answers a plain GET of /v0 with 426, as /v0/ws does", async () => {
    const { apiKey } = await served.newPod();
    const response = await fetch(`${served.server.inbox.url}/v0`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(response.status).toBe(426);
  });
});
