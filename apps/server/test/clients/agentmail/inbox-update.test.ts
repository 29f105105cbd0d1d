import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

const statusOf = async (call: Promise<unknown>): Promise<number | undefined> => {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentMailError);
  return (error as AgentMailError).statusCode;
};

describe("inboxes.update and inboxes.delete through the official agentmail SDK", () => {
  it("changes the display name and merges metadata, keeping what is left out", async () => {
    const { sdk } = await served.newPod();
    const inbox = await sdk.inboxes.create({ username: "update-me", displayName: "Before" });
    expect(inbox.metadata).toEqual({});

    const renamed = await sdk.inboxes.update(inbox.inboxId, { displayName: "After", metadata: { tier: 2, vip: true } });
    expect(renamed).toMatchObject({ inboxId: inbox.inboxId, displayName: "After", metadata: { tier: 2, vip: true } });

    const merged = await sdk.inboxes.update(inbox.inboxId, { metadata: { vip: null, region: "eu" } });
    expect(merged).toMatchObject({ displayName: "After", metadata: { tier: 2, region: "eu" } });
    expect((await sdk.inboxes.get(inbox.inboxId)).metadata).toEqual({ tier: 2, region: "eu" });

    const cleared = await sdk.inboxes.update(inbox.inboxId, { metadata: null });
    expect(cleared.metadata).toEqual({});
    expect(cleared.displayName).toBe("After");
  });

  it("refuses metadata beyond 50 keys with a 400", async () => {
    const { sdk } = await served.newPod();
    const inbox = await sdk.inboxes.create({ username: "many-keys" });
    const half = (offset: number) => Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${offset + i}`, i]));
    await sdk.inboxes.update(inbox.inboxId, { metadata: half(0) });
    expect(await statusOf(sdk.inboxes.update(inbox.inboxId, { metadata: half(30) }))).toBe(400);
  });

  it("deletes an inbox, after which it answers 404", async () => {
    const { sdk } = await served.newPod();
    const inbox = await sdk.inboxes.create({ username: "short-lived" });
    await sdk.inboxes.delete(inbox.inboxId);
    expect(await statusOf(sdk.inboxes.get(inbox.inboxId))).toBe(404);
    expect(await statusOf(sdk.inboxes.delete(inbox.inboxId))).toBe(404);
  });

  it("answers 404 for another pod's inbox, changing nothing", async () => {
    const mine = await served.newPod();
    const theirs = await served.newPod();
    const inbox = await mine.sdk.inboxes.create({ username: "not-yours", displayName: "Mine" });
    expect(await statusOf(theirs.sdk.inboxes.update(inbox.inboxId, { displayName: "Taken" }))).toBe(404);
    expect(await statusOf(theirs.sdk.inboxes.delete(inbox.inboxId))).toBe(404);
    expect((await mine.sdk.inboxes.get(inbox.inboxId)).displayName).toBe("Mine");
  });
});

describe("an inbox id no inbox can have", () => {
  it("answers PATCH with a NUL in the path with a client error, valid key or not", async () => {
    const url = `${served.server.inbox.url}/v0/inboxes/%00`;
    for (const key of [served.server.inbox.apiKey ?? "", "not-a-key"]) {
      const response = await fetch(url, {
        method: "PATCH",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ display_name: "x" }),
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
  });
});
