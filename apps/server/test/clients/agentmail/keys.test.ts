import { type AgentMail, AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { agentMailClient, agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

/** A created key as a bearer key, the kind this server creates (the SDK's type also allows a public key). */
function bearer(created: AgentMail.apiKeys.CreateApiKeyResult): AgentMail.CreateApiKeyResponse {
  if (!("apiKey" in created)) {
    throw new Error(`A bearer key was expected: ${JSON.stringify(created)}`);
  }
  return created;
}

const statusOf = async (call: Promise<unknown>): Promise<number | undefined> => {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentMailError);
  return (error as AgentMailError).statusCode;
};

describe("API keys and auth.me through the official agentmail SDK", () => {
  it("creates another key for the same pod, shown once, and lists and gets it without the key", async () => {
    const { sdk } = await served.newPod();
    const me = await sdk.auth.me();
    expect(me).toMatchObject({ scopeType: "pod", scopeId: me.podId });

    const created = bearer(await sdk.apiKeys.create({ name: "ci-runner" }));
    expect(created).toMatchObject({ name: "ci-runner", podId: me.podId });
    expect(created.apiKey).toMatch(/^ph_inbox_/);
    expect(created.prefix).toBe(created.apiKey.slice(0, created.prefix.length));

    const second = agentMailClient(served.server, created.apiKey);
    expect(await second.auth.me()).toMatchObject({ podId: me.podId, apiKeyId: created.apiKeyId });
    // The second key opens the same inboxes.
    const inbox = await sdk.inboxes.create({ username: `shared-${(me.podId ?? "").slice(0, 8)}` });
    expect((await second.inboxes.get(inbox.inboxId)).inboxId).toBe(inbox.inboxId);

    const listed = await second.apiKeys.list();
    expect(listed.apiKeys.map((key) => key.apiKeyId).sort()).toEqual([me.apiKeyId, created.apiKeyId].sort());
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);
    const fetched = await sdk.apiKeys.get(created.apiKeyId);
    expect(fetched).toMatchObject({ type: "bearer", apiKeyId: created.apiKeyId, name: "ci-runner" });
    expect(JSON.stringify(fetched)).not.toContain(created.apiKey);
  });

  it("pages through the keys newest first", async () => {
    const { sdk } = await served.newPod();
    for (const name of ["one", "two", "three"]) {
      await sdk.apiKeys.create({ name });
    }
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await sdk.apiKeys.list({ limit: 2, pageToken });
      seen.push(...page.apiKeys.map((key) => key.name));
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
  });

  it("refuses a deleted key from the very next request, and a key deleting itself", async () => {
    const { sdk } = await served.newPod();
    const created = bearer(await sdk.apiKeys.create({ name: "to-revoke" }));
    const doomed = agentMailClient(served.server, created.apiKey);
    await doomed.inboxes.list();
    await sdk.apiKeys.delete(created.apiKeyId);
    expect(await statusOf(doomed.inboxes.list())).toBe(401);
    expect(await statusOf(sdk.apiKeys.get(created.apiKeyId))).toBe(404);

    // A key cannot delete itself: the pod always keeps a key that reaches it.
    const me = await sdk.auth.me();
    expect(await statusOf(sdk.apiKeys.delete(me.apiKeyId ?? ""))).toBe(409);
    expect((await sdk.auth.me()).podId).toBe(me.podId);
  });

  it("never shows or deletes another pod's keys: their ids answer 404", async () => {
    const mine = await served.newPod();
    const theirs = await served.newPod();
    const key = bearer(await mine.sdk.apiKeys.create({ name: "private" }));
    expect(await statusOf(theirs.sdk.apiKeys.get(key.apiKeyId))).toBe(404);
    expect(await statusOf(theirs.sdk.apiKeys.delete(key.apiKeyId))).toBe(404);
    const listed = await theirs.sdk.apiKeys.list();
    expect(listed.apiKeys.map((each) => each.apiKeyId)).not.toContain(key.apiKeyId);
    // Still working after the other pod's attempt.
    expect((await agentMailClient(served.server, key.apiKey).auth.me()).podId).toBe((await mine.sdk.auth.me()).podId);
  });

  it("refuses what a bearer key here cannot have: permissions", async () => {
    const { sdk } = await served.newPod();
    expect(await statusOf(sdk.apiKeys.create({ name: "scoped", permissions: { inboxRead: true } }))).toBe(400);
  });
});
