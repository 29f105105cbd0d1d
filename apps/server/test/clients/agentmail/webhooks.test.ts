import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { inboxClient } from "../../support/test-server.ts";
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

describe("webhooks.get and webhooks.update (PATCH) through the official agentmail SDK", () => {
  it("gets a webhook and edits it partially: inboxes added and removed, the rest kept", async () => {
    const { sdk } = await served.newPod();
    const created = await sdk.webhooks.create({
      url: "https://hooks.example.com/sdk",
      eventTypes: ["message.received"],
      inboxIds: ["a@pigeonhole.test"],
      clientId: "sdk-hook",
    });
    const fetched = await sdk.webhooks.get(created.webhookId);
    expect(fetched).toMatchObject({
      webhookId: created.webhookId,
      secret: created.secret,
      inboxIds: ["a@pigeonhole.test"],
    });

    const added = await sdk.webhooks.update(created.webhookId, {
      addInboxIds: ["B@pigeonhole.test", "c@pigeonhole.test"],
    });
    expect(added).toMatchObject({
      url: "https://hooks.example.com/sdk",
      clientId: "sdk-hook",
      enabled: true,
      eventTypes: ["message.received"],
      inboxIds: ["a@pigeonhole.test", "b@pigeonhole.test", "c@pigeonhole.test"],
      secret: created.secret,
    });

    const edited = await sdk.webhooks.update(created.webhookId, {
      removeInboxIds: ["a@pigeonhole.test", "c@pigeonhole.test"],
      eventTypes: ["message.sent", "message.received"],
    });
    expect(edited).toMatchObject({ inboxIds: ["b@pigeonhole.test"], eventTypes: ["message.sent", "message.received"] });

    // Removing the last inbox leaves a webhook for every inbox, as AgentMail's does.
    const everyInbox = await sdk.webhooks.update(created.webhookId, { removeInboxIds: ["b@pigeonhole.test"] });
    expect(everyInbox.inboxIds ?? null).toBeNull();
  });

  it("refuses a filter of more than 10 inboxes with a 400, changing nothing", async () => {
    const { sdk } = await served.newPod();
    const created = await sdk.webhooks.create({
      url: "https://hooks.example.com/many",
      eventTypes: ["message.received"],
    });
    const eleven = Array.from({ length: 11 }, (_, i) => `i${i}@pigeonhole.test`);
    await sdk.webhooks.update(created.webhookId, { addInboxIds: eleven.slice(0, 6) });
    expect(await statusOf(sdk.webhooks.update(created.webhookId, { addInboxIds: eleven.slice(6) }))).toBe(400);
    expect((await sdk.webhooks.get(created.webhookId)).inboxIds).toHaveLength(6);
  });

  it("keeps the seed's PUT, which replaces the settings as a whole", async () => {
    const { sdk, apiKey } = await served.newPod();
    const created = await sdk.webhooks.create({
      url: "https://hooks.example.com/put",
      eventTypes: ["message.received"],
      inboxIds: ["a@pigeonhole.test"],
    });
    const client = inboxClient(served.server.inbox.url, apiKey);
    const { data } = await client.PUT("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: created.webhookId } },
      body: { url: "https://hooks.example.com/replaced" },
    });
    expect(data).toMatchObject({ url: "https://hooks.example.com/replaced", event_types: null, inbox_ids: null });
  });

  it("answers 404 for another pod's webhook on get, update and delete", async () => {
    const mine = await served.newPod();
    const theirs = await served.newPod();
    const created = await mine.sdk.webhooks.create({
      url: "https://hooks.example.com/mine",
      eventTypes: ["message.sent"],
    });
    expect(await statusOf(theirs.sdk.webhooks.get(created.webhookId))).toBe(404);
    expect(await statusOf(theirs.sdk.webhooks.update(created.webhookId, { addInboxIds: ["x@pigeonhole.test"] }))).toBe(
      404,
    );
    expect(await statusOf(theirs.sdk.webhooks.delete(created.webhookId))).toBe(404);
    expect((await mine.sdk.webhooks.get(created.webhookId)).inboxIds ?? null).toBeNull();
  });
});
