import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "../clients/agentmail/agentmail-server.ts";

// A date-time the spec's format admits but JavaScript's dates cannot read (a leap second) is a 400 naming its field,
// never a NaN that reaches the database (a 500 on PostgreSQL, an empty answer on SQLite).
const served = agentMailServerForFile();

const LEAP_SECOND = "2026-01-01T23:59:60Z";

async function call(method: string, path: string, body?: unknown) {
  const { server } = served;
  const response = await fetch(`${server.inbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.inbox.apiKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const invalidValue = (field: string) => ({
  error: expect.objectContaining({
    type: "validation_error",
    details: expect.objectContaining({ field, code: "INVALID_VALUE" }),
  }),
});

describe("a leap-second date-time in a request", () => {
  it("is a 400 naming start or end on the pod's and an inbox's event metrics", async () => {
    const inboxId = (await served.sdk.inboxes.create({})).inboxId;
    const paths = ["/v0/metrics/events", `/v0/inboxes/${encodeURIComponent(inboxId)}/metrics/events`];
    for (const path of paths) {
      for (const field of ["start", "end"]) {
        const answer = await call("GET", `${path}?${field}=${encodeURIComponent(LEAP_SECOND)}`);
        expect({ path, field, ...answer }).toEqual({ path, field, status: 400, body: invalidValue(field) });
      }
    }
  });

  it("is a 400 naming send_at when a draft is created or rescheduled with one", async () => {
    const inboxId = encodeURIComponent((await served.sdk.inboxes.create({})).inboxId);
    const created = await call("POST", `/v0/inboxes/${inboxId}/drafts`, { subject: "leap", send_at: LEAP_SECOND });
    expect(created).toEqual({ status: 400, body: invalidValue("send_at") });
    const draft = await call("POST", `/v0/inboxes/${inboxId}/drafts`, { subject: "leap" });
    expect(draft.status).toBe(200);
    const updated = await call("PATCH", `/v0/inboxes/${inboxId}/drafts/${String(draft.body.draft_id)}`, {
      send_at: LEAP_SECOND,
    });
    expect(updated).toEqual({ status: 400, body: invalidValue("send_at") });
  });
});
