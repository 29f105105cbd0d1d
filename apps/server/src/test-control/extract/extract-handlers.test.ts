import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testControlOf } from "../../../test/support/test-control-requests.ts";
import type { TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";

let t: TestServer;
let control: ReturnType<typeof testControlOf>;
beforeAll(async () => {
  t = await startTestServer();
  control = testControlOf(t.server);
});
afterAll(async () => {
  await t?.server.close();
});

const extract = (messageId: string, query: Record<string, string>) =>
  control.get(`/messages/${encodeURIComponent(messageId)}/extract`, query);

describe("extracting links and codes from a message", () => {
  it("reads the links and codes of any key's message, by the inbox holding the copy", async () => {
    const tenant = await t.inbox.POST("/v0/inboxes", { body: { username: `extract-${Date.now().toString(36)}` } });
    const inboxId = expectData(tenant).inbox_id;
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inboxId } },
        body: {
          to: "ada@example.com",
          subject: "Sign in",
          text: "Your sign-in code:\n\n  K7Q2ZP9X\n\nhttps://app.example.com/login?c=K7Q2ZP9X&u=ada",
          html: '<a href="https://app.example.com/login?c=K7Q2ZP9X&amp;u=ada">Sign in</a> <a href="https://app.example.com/help">Help</a>',
        },
      }),
    );
    const answer = await extract(sent.message_id, { inbox_id: inboxId.toUpperCase() });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      links: ["https://app.example.com/login?c=K7Q2ZP9X&u=ada", "https://app.example.com/help"],
      codes: ["K7Q2ZP9X"],
    });

    const elsewhere = await extract(sent.message_id, { inbox_id: "nobody@pigeonhole.test" });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toMatchObject({
      type: "not_found_error",
      details: { field: "message_id", code: "NOT_FOUND" },
    });
  });

  it("needs the inbox", async () => {
    const answer = await extract("<a@pigeonhole.test>", {});
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ details: { field: "inbox_id", code: "REQUIRED" } });
  });
});
