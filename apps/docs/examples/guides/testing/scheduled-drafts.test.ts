import { expect, it } from "vitest";
import { useLocalServer } from "./local-server.ts";

const { tc, inbox } = await useLocalServer();

it("sends a scheduled draft once the clock passes its time", async () => {
  await inbox.post("/v0/inboxes", { body: { username: "app" } });
  await inbox.post("/v0/inboxes", { body: { username: "ada" } });

  // A reminder for tomorrow, by the server's clock.
  const { now } = await tc.clock.get();
  const tomorrow = new Date(Date.parse(now) + 24 * 60 * 60 * 1000);
  const draft = await inbox.post("/v0/inboxes/{inbox_id}/drafts", {
    params: { path: { inbox_id: "app@pigeonhole.test" } },
    body: {
      to: ["ada@pigeonhole.test"],
      subject: "Your trial ends tomorrow",
      send_at: tomorrow.toISOString(),
    },
  });
  expect(draft.send_status).toBe("scheduled");

  // A day later, without waiting a day: the server sends it at once.
  await tc.clock.advance({ hours: 24, seconds: 1 });
  const { message } = await tc.waitForMessage({
    inbox_id: "ada@pigeonhole.test",
    subject: "trial ends",
    timeout_ms: 5_000,
  });
  expect(message.from).toContain("app@pigeonhole.test");
});
