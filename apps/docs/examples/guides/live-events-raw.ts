import type { EventStreamMessage } from "@pigeonhole/inbox";

// The stream lives on the Inbox API's address, with ws:// for http://
// and wss:// for https://.
const url = new URL(
  "/v0/ws",
  process.env.PIGEONHOLE_INBOX_BASE_URL ?? "http://127.0.0.1:4010",
);
url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
// A browser cannot set an Authorization header on a WebSocket, so the
// key goes in the query. Only where the key may be seen: a page's
// users can read it.
url.searchParams.set(
  "api_key",
  process.env.PIGEONHOLE_INBOX_API_KEY ?? "pigeonhole-inbox-dev",
);

const socket = new WebSocket(url);
socket.addEventListener("open", () => {
  socket.send(
    JSON.stringify({
      type: "subscribe",
      event_types: ["message.received"],
    }),
  );
});
socket.addEventListener("message", ({ data }) => {
  const message = JSON.parse(String(data)) as EventStreamMessage;
  if (message.type === "subscribed") {
    console.log("subscribed to", message.event_types);
  } else if (message.type === "error") {
    console.log("refused:", message.error.details?.code);
  } else if (message.event_type === "message.received") {
    console.log(message.event_id, message.message.subject);
  }
});
// 1008: the subscription was refused; 1006: no connection (a refused
// key too) or a dropped one. After 1001, 1006 and 1013, connect again
// with `after` set to the last event_id you handled.
socket.addEventListener("close", ({ code }) => {
  console.log("closed", code);
});
process.once("SIGINT", () => socket.close(1000));
