import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";

// A download answered as JSON carries a signed `download_url` back to the server. Its origin is the one the client
// reached: the request's own, or, behind a proxy the server is told to trust, the one that proxy names with
// `X-Forwarded-Proto` and `X-Forwarded-Host`. From anyone else those headers name nothing, so that no client can make
// the server hand out links to a host of its choosing.

const HOSTILE_FORWARDING = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "attacker.example" };

interface Attachment {
  inboxId: string;
  messageId: string;
  attachmentId: string;
}

/** A sent message with one attachment, in a new inbox of the server's development pod. */
async function attachmentOn(t: TestServer, username: string): Promise<Attachment> {
  const inboxId = expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
  const sent = expectData(
    await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inboxId } },
      body: { to: "someone@example.com", text: "Attached.", attachments: [{ filename: "a.txt", content: "QQ==" }] },
    }),
  );
  const message = expectData(
    await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: inboxId, message_id: sent.message_id } },
    }),
  );
  const attachmentId = message.attachments?.[0]?.attachment_id ?? "";
  return { inboxId, messageId: sent.message_id, attachmentId };
}

/** The `download_url` the attachment's JSON download answers to a request carrying `headers`. */
async function downloadLink(t: TestServer, attachment: Attachment, headers: Record<string, string>): Promise<URL> {
  const path = [attachment.inboxId, attachment.messageId, attachment.attachmentId].map(encodeURIComponent);
  const response = await fetch(
    `${t.server.inbox.url}/v0/inboxes/${path[0]}/messages/${path[1]}/attachments/${path[2]}`,
    {
      headers: { Authorization: `Bearer ${t.server.inbox.apiKey}`, Accept: "application/json", ...headers },
    },
  );
  expect(response.status).toBe(200);
  return new URL(((await response.json()) as { download_url: string }).download_url);
}

/** The raw source's `download_url`, asked for with `headers`. */
async function sourceLink(t: TestServer, attachment: Attachment, headers: Record<string, string>): Promise<URL> {
  const path = [attachment.inboxId, attachment.messageId].map(encodeURIComponent);
  const response = await fetch(`${t.server.inbox.url}/v0/inboxes/${path[0]}/messages/${path[1]}/raw`, {
    headers: { Authorization: `Bearer ${t.server.inbox.apiKey}`, Accept: "application/json", ...headers },
  });
  expect(response.status).toBe(200);
  return new URL(((await response.json()) as { download_url: string }).download_url);
}

/** What the link's path answers on the server itself, where the proxy would send it. */
async function followOnServer(t: TestServer, link: URL): Promise<string> {
  const response = await fetch(`${t.server.inbox.url}${link.pathname}`);
  expect(response.status).toBe(200);
  return response.text();
}

describe("download links from a server that trusts no proxy", () => {
  let t: TestServer;
  let attachment: Attachment;
  beforeAll(async () => {
    t = await startTestServer();
    attachment = await attachmentOn(t, "links-direct");
  });
  afterAll(() => t.server.close());

  it("point at the server the client reached, whatever X-Forwarded-Proto and X-Forwarded-Host say", async () => {
    const own = new URL(t.server.inbox.url).origin;
    const link = await downloadLink(t, attachment, HOSTILE_FORWARDING);
    expect(link.origin).toBe(own);
    expect(await followOnServer(t, link)).toBe("A");
    expect((await sourceLink(t, attachment, HOSTILE_FORWARDING)).origin).toBe(own);
  });
});

describe("download links from a server behind a trusted proxy", () => {
  let t: TestServer;
  let attachment: Attachment;
  beforeAll(async () => {
    // The tests' own requests come from 127.0.0.1: here, that is the proxy in front.
    t = await startTestServer({ trustedProxies: ["127.0.0.1"] });
    attachment = await attachmentOn(t, "links-proxied");
  });
  afterAll(() => t.server.close());

  it("point at the address the proxy names, and open there", async () => {
    const forwarded = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "mail.example.com" };
    const link = await downloadLink(t, attachment, forwarded);
    expect(link.origin).toBe("https://mail.example.com");
    expect(link.pathname).toMatch(/^\/v0\/downloads\/[^/]+$/);
    expect(await followOnServer(t, link)).toBe("A");
    expect((await sourceLink(t, attachment, forwarded)).origin).toBe("https://mail.example.com");
  });

  it("take the value the proxy appended, not one the client sent ahead of it", async () => {
    // A proxy that appends to these headers passes on what the client sent: the last value is the proxy's own.
    const link = await downloadLink(t, attachment, {
      "X-Forwarded-Proto": "http, https",
      "X-Forwarded-Host": "evil.example, mail.example.com",
    });
    expect(link.origin).toBe("https://mail.example.com");
    expect(await followOnServer(t, link)).toBe("A");
    const source = await sourceLink(t, attachment, { "X-Forwarded-Host": "evil.example, mail.example.com" });
    expect(source.host).toBe("mail.example.com");
  });

  it("keep a port with the host", async () => {
    const link = await downloadLink(t, attachment, {
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "mail.example.com:8443",
    });
    expect(link.origin).toBe("https://mail.example.com:8443");
  });

  it("keep the request's own host or scheme where the proxy names only the other", async () => {
    const own = new URL(t.server.inbox.url);
    expect((await downloadLink(t, attachment, { "X-Forwarded-Proto": "https" })).origin).toBe(`https://${own.host}`);
    expect((await downloadLink(t, attachment, { "X-Forwarded-Host": "mail.example.com" })).origin).toBe(
      "http://mail.example.com",
    );
  });

  it("ignore forwarded values that name no origin, and link to the server itself", async () => {
    const own = new URL(t.server.inbox.url).origin;
    for (const headers of [
      { "X-Forwarded-Proto": "javascript", "X-Forwarded-Host": "mail.example.com" },
      { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "mail.example.com/elsewhere" },
      { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "user@attacker.example" },
      { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "bad host" },
    ]) {
      expect((await downloadLink(t, attachment, headers)).origin, JSON.stringify(headers)).toBe(own);
    }
  });
});
