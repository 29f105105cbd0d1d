import { expect, it } from "vitest";
import { useLocalServer } from "./local-server.ts";
import { createSignup } from "./signup.ts";

const { tc, inbox } = await useLocalServer();

it("mails a code and a link that verify the address", async () => {
  await inbox.post("/v0/inboxes", { body: { username: "app" } });
  await inbox.post("/v0/inboxes", { body: { username: "ada" } });
  const signup = createSignup(inbox, "app@pigeonhole.test");

  // The server's time before the action: older mail is not taken for
  // the one this test waits for.
  const { now } = await tc.clock.get();
  await signup.signUp("ada@pigeonhole.test");

  // Answers as soon as the mail is stored: no polling loop, no sleep.
  const { message, links, codes } = await tc.waitForMessage({
    inbox_id: "ada@pigeonhole.test",
    subject: "verify",
    since: now,
    timeout_ms: 5_000,
  });
  expect(message.from).toContain("app@pigeonhole.test");
  expect(codes).toHaveLength(1);
  expect(signup.verifyCode("ada@pigeonhole.test", codes[0] ?? "")).toBe(
    true,
  );
  expect(links).toHaveLength(1);
  expect(signup.verifyLink(links[0] ?? "")).toBe(true);
});
