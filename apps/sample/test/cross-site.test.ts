import { once } from "node:events";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "./stack.ts";

// The sample's server holds the API keys: whatever reaches its /api routes acts with them. A page on another origin
// must not make a visitor's browser create inboxes or send mail through it.

/** Serves one HTML page on 127.0.0.1 and a free port: another origin than the sample's. */
async function startOtherSite(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An HTTP request to the sample with exactly these headers (fetch would set Origin and Host itself). */
function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body = "",
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers: { ...headers, "content-length": Buffer.byteLength(body) } });
    outgoing.once("error", reject);
    outgoing.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : null });
      });
    });
    outgoing.end(body);
  });
}

describe("requests from other origins, refused by the sample's server", () => {
  let stack: Stack;
  let sampleHost: string;
  const usernames = async () => (await stack.inbox.get("/v0/inboxes")).inboxes.map((inbox) => inbox.inbox_id);

  beforeAll(async () => {
    stack = await startStack();
    sampleHost = new URL(stack.sampleUrl).host;
  });
  afterAll(() => stack?.close());

  it("refuses a form post from a page on another origin: no inbox is made, no mail sent", async () => {
    // text/plain forms whose one field, joined to its value by "=", spells JSON: what a page on any site can post
    // without a preflight, with the visitor's access to the sample.
    const site = await startOtherSite(`<!doctype html>
      <form method="post" enctype="text/plain" action="${stack.sampleUrl}/api/inbox/inboxes">
        <input type="hidden" name='{"username":"forged","display_name":"' value='x"}'>
      </form>
      <form method="post" enctype="text/plain" action="${stack.sampleUrl}/api/inbox/inboxes/victim%40pigeonhole.test/messages">
        <input type="hidden" name='{"to":"someone@example.com","subject":"forged","text":"' value='x"}'>
      </form>`);
    try {
      await stack.inbox.post("/v0/inboxes", { body: { username: "victim" } });
      const page = await stack.newTab();
      for (const index of [0, 1]) {
        await page.goto(site.url);
        const [answer] = await Promise.all([
          page.waitForResponse((response) => response.url().startsWith(stack.sampleUrl)),
          page.evaluate((form) => document.forms[form]?.submit(), index),
        ]);
        expect(answer.status()).toBe(403);
        expect(await answer.json()).toMatchObject({ problem: { status: 403, kind: "forbidden" } });
      }
      // Sent from JavaScript on that page too, without reading the answer: it never reaches the APIs either.
      await page.goto(site.url);
      await page.evaluate(async (url) => {
        await fetch(`${url}/api/inbox/inboxes`, {
          method: "POST",
          mode: "no-cors",
          headers: { "content-type": "text/plain" },
          body: JSON.stringify({ username: "forged2" }),
        });
      }, stack.sampleUrl);
      await page.close();
      expect(await usernames()).toEqual(["victim@pigeonhole.test"]);
      const { messages } = await stack.inbox.get("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: "victim@pigeonhole.test" } },
      });
      expect(messages).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it("still works from its own page", async () => {
    const { page, errors } = await stack.openPage();
    const form = page.getByRole("form", { name: "Create inbox" });
    await form.getByLabel("Username").fill("own");
    await form.getByRole("button", { name: "Create inbox" }).click();
    await page.getByRole("list", { name: "Inboxes" }).getByText("own@pigeonhole.test").waitFor();
    expect(errors.list).toEqual([]);
    await page.close();
  });

  it("answers 403 to a state-changing request with another Origin, or none, over HTTP", async () => {
    const url = `${stack.sampleUrl}/api/inbox/inboxes`;
    const body = JSON.stringify({ username: "forged3" });
    const json = { "content-type": "application/json" };
    for (const origin of ["http://evil.example", "null", `http://${sampleHost}.evil.example`, undefined]) {
      const answer = await rawRequest(url, "POST", { ...json, ...(origin === undefined ? {} : { origin }) }, body);
      expect(answer, String(origin)).toMatchObject({ status: 403, json: { problem: { kind: "forbidden" } } });
    }
    const deleted = await rawRequest(`${stack.sampleUrl}/api/forum/posts/x`, "DELETE", {
      ...json,
      origin: "http://evil.example",
    });
    expect(deleted.status).toBe(403);
    expect(await usernames()).not.toContain("forged3@pigeonhole.test");
  });

  it("answers 415 to a state-changing request that is not JSON, even from its own origin", async () => {
    const origin = stack.sampleUrl;
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const answer = await rawRequest(
        `${stack.sampleUrl}/api/inbox/inboxes`,
        "POST",
        { "content-type": type, origin },
        JSON.stringify({ username: "forged4" }),
      );
      expect(answer, type).toMatchObject({ status: 415, json: { problem: { status: 415 } } });
    }
    expect(await usernames()).not.toContain("forged4@pigeonhole.test");
  });

  it("answers 403 to any request naming another Host, as a rebound DNS name would", async () => {
    const host = "rebound.example";
    const read = await rawRequest(`${stack.sampleUrl}/api/inbox/inboxes`, "GET", { host });
    expect(read).toMatchObject({ status: 403, json: { problem: { kind: "forbidden" } } });
    const write = await rawRequest(
      `${stack.sampleUrl}/api/inbox/inboxes`,
      "POST",
      { host, origin: `http://${host}`, "content-type": "application/json" },
      JSON.stringify({ username: "forged5" }),
    );
    expect(write.status).toBe(403);
    // The same request naming the sample's own host and origin goes through.
    const own = await rawRequest(
      `${stack.sampleUrl}/api/inbox/inboxes`,
      "POST",
      { origin: stack.sampleUrl, "content-type": "application/json; charset=utf-8" },
      JSON.stringify({ username: "allowed" }),
    );
    expect(own.status).toBe(200);
    expect(await usernames()).toContain("allowed@pigeonhole.test");
  });
});
