import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

describe("the official agentmail SDK, pointed at the server", () => {
  it("creates, lists and gets inboxes with its own types", async () => {
    const created = await served.sdk.inboxes.create({ username: "sdk-first", displayName: "SDK First" });
    expect(created.inboxId).toBe("sdk-first@pigeonhole.test");
    expect(created.displayName).toBe("SDK First");
    // The SDK's Inbox requires `email`; its clients print it as the inbox's address.
    expect(created.email).toBe(created.inboxId);

    const listed = await served.sdk.inboxes.list({ limit: 100 });
    expect(listed.inboxes.map((inbox) => inbox.inboxId)).toContain(created.inboxId);
    const fetched = await served.sdk.inboxes.get(created.inboxId);
    expect(fetched).toMatchObject({ inboxId: created.inboxId, email: created.inboxId, displayName: "SDK First" });
    expect(listed.inboxes.find((inbox) => inbox.inboxId === created.inboxId)?.email).toBe(created.inboxId);
  });

  it("gets the SDK's error for another pod's inbox: 404, as for one that does not exist", async () => {
    const mine = await served.sdk.inboxes.create({ username: "sdk-private" });
    const { sdk: other } = await served.newPod();
    const error = await other.inboxes.get(mine.inboxId).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentMailError);
    expect((error as AgentMailError).statusCode).toBe(404);
  });
});
