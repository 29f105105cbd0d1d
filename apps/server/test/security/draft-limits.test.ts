import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "../clients/agentmail/agentmail-server.ts";
import type { InboxClient } from "../support/test-server.ts";
import { expectData } from "../support/test-server.ts";

// Each draft keeps up to 10 MiB of attachments; a pod holds a bounded number of drafts, exactly, however many
// creates race, so that a stream of creates stores a bounded amount. Other pods are not affected.

/** A small bound, so that reaching it takes a few requests. */
const DRAFTS_PER_POD = 5;
const served = agentMailServerForFile({ draftsPerPod: DRAFTS_PER_POD });

async function newPodWithInbox(): Promise<{ client: InboxClient; inboxId: string }> {
  const client = await served.testServer.newInboxTenant();
  const inboxId = expectData(await client.POST("/v0/inboxes", { body: {} })).inbox_id;
  return { client, inboxId };
}

const createDraft = (client: InboxClient, inboxId: string, body: { subject: string; client_id?: string }) =>
  client.POST("/v0/inboxes/{inbox_id}/drafts", {
    params: { path: { inbox_id: inboxId } },
    body: { ...body, attachments: [{ filename: "a.bin", content: Buffer.alloc(1024).toString("base64") }] },
  });

describe("drafts per pod", () => {
  it("refuses one draft more than the bound with 409 DRAFT_LIMIT_REACHED; sending or deleting one makes room", async () => {
    const { client, inboxId } = await newPodWithInbox();
    const stored: string[] = [];
    for (let i = 0; i < DRAFTS_PER_POD; i++) {
      const body = i === 0 ? { subject: `draft ${i}`, client_id: "first" } : { subject: `draft ${i}` };
      stored.push(expectData(await createDraft(client, inboxId, body)).draft_id);
    }
    const refused = await createDraft(client, inboxId, { subject: "one too many" });
    expect(refused.response.status).toBe(409);
    expect(refused.response.headers.get("X-Should-Retry")).toBe("false");
    expect(refused.error?.error).toMatchObject({
      type: "conflict_error",
      details: { field: null, code: "DRAFT_LIMIT_REACHED" },
    });
    // A draft the pod holds already, named by its client_id, is still answered.
    const again = expectData(await createDraft(client, inboxId, { subject: "ignored", client_id: "first" }));
    expect(again.draft_id).toBe(stored[0]);
    // Another pod is not affected.
    const other = await newPodWithInbox();
    expectData(await createDraft(other.client, other.inboxId, { subject: "another pod's" }));

    const [first, second] = stored;
    await client.DELETE("/v0/inboxes/{inbox_id}/drafts/{draft_id}", {
      params: { path: { inbox_id: inboxId, draft_id: first ?? "" } },
    });
    expectData(await createDraft(client, inboxId, { subject: "after a delete" }));
    expect((await createDraft(client, inboxId, { subject: "full again" })).response.status).toBe(409);
    await client.PATCH("/v0/inboxes/{inbox_id}/drafts/{draft_id}", {
      params: { path: { inbox_id: inboxId, draft_id: second ?? "" } },
      body: { to: ["ada@example.com"] },
    });
    expectData(
      await client.POST("/v0/inboxes/{inbox_id}/drafts/{draft_id}/send", {
        params: { path: { inbox_id: inboxId, draft_id: second ?? "" } },
        body: {},
      }),
    );
    expectData(await createDraft(client, inboxId, { subject: "after a send" }));
  });

  it("holds exactly when creates race, over all the pod's inboxes", async () => {
    const { client, inboxId } = await newPodWithInbox();
    const secondInbox = expectData(await client.POST("/v0/inboxes", { body: {} })).inbox_id;
    const attempts = 4 * DRAFTS_PER_POD;
    const answers = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        createDraft(client, i % 2 === 0 ? inboxId : secondInbox, { subject: `race ${i}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(DRAFTS_PER_POD);
    expect(statuses.filter((status) => status === 409)).toHaveLength(attempts - DRAFTS_PER_POD);
    const listed = expectData(await client.GET("/v0/drafts", { params: { query: { limit: 100 } } }));
    expect(listed.count).toBe(DRAFTS_PER_POD);
  });
});
