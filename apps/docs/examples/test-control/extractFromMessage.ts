import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// The links (text and html, each once, in order) and one-time codes of
// a message you already have; waitForMessage answers them too.
const { links, codes } = await tc.extract(
  "ada@pigeonhole.test",
  "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
);
console.log(links, codes);
