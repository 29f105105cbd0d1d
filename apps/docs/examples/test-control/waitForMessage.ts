import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// Note the time before the action that sends the mail, so that an
// older message is not taken for the one you wait for.
const { now } = await tc.clock.get();
// ... your application signs Ada up, and mails her ...

const { message, links, codes } = await tc.waitForMessage({
  inbox_id: "ada@pigeonhole.test",
  subject: "Verify your address",
  since: now,
  timeout_ms: 5_000, // then a WaitTimedOutError
});
console.log(message.subject, links[0], codes[0]);
