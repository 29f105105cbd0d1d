import { request } from "node:http";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitBodySize } from "./body-limit.ts";
import type { RunningServer } from "./listen.ts";
import { listen } from "./listen.ts";

let server: RunningServer;
beforeAll(async () => {
  const app = new Hono();
  app.use(limitBodySize({ maxSize: 10, onError: (c) => c.text("too large", 413) }));
  app.all("/echo", async (c) => c.text(`${c.req.method} ${await c.req.text()}`));
  server = await listen(app, "127.0.0.1", 0);
});
afterAll(() => server.close());

/** Sends `chunks` one by one without a Content-Length, as Transfer-Encoding: chunked. */
function sendChunked(chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/echo`, { method: "POST" }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    for (const chunk of chunks) {
      req.write(chunk);
    }
    req.end();
  });
}

describe("limitBodySize", () => {
  it("passes bodies up to the limit, declared by Content-Length, and leaves them readable", async () => {
    const response = await fetch(`${server.url}/echo`, { method: "POST", body: "0123456789" });
    expect([response.status, await response.text()]).toEqual([200, "POST 0123456789"]);
  });

  it("refuses a body whose Content-Length is over the limit", async () => {
    const response = await fetch(`${server.url}/echo`, { method: "PUT", body: "0123456789A" });
    expect([response.status, await response.text()]).toEqual([413, "too large"]);
  });

  it("counts a chunked body as it streams", async () => {
    expect(await sendChunked(["01234", "56789"])).toEqual({ status: 200, body: "POST 0123456789" });
    expect(await sendChunked(["01234", "56789", "A"])).toEqual({ status: 413, body: "too large" });
  });

  it("lets requests without a body through", async () => {
    const response = await fetch(`${server.url}/echo`);
    expect([response.status, await response.text()]).toEqual([200, "GET "]);
  });
});
