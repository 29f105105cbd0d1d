import { once } from "node:events";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startNginx } from "../src/index.ts";

const backend = createServer((request, response) => {
  response.end(`backend saw ${request.url} for ${request.headers.host}`);
});
let backendPort: number;
beforeAll(async () => {
  backend.listen(0, "127.0.0.1");
  await once(backend, "listening");
  backendPort = (backend.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => backend.close(() => resolve())));

it("proxies to a backend from a configuration in its own folder, logs there, and removes the folder when stopped", async () => {
  const nginx = await startNginx({
    ports: 2,
    http: ({ ports }) =>
      ports
        .map(
          (port) => `server { listen 127.0.0.1:${port}; location / { proxy_pass http://127.0.0.1:${backendPort}; } }`,
        )
        .join("\n"),
  });
  try {
    for (const port of nginx.ports) {
      const answer = await fetch(`http://127.0.0.1:${port}/hello?x=1`);
      expect(await answer.text()).toBe(`backend saw /hello?x=1 for 127.0.0.1:${backendPort}`);
    }
    expect(nginx.config).toContain(`error_log ${nginx.dir}/error.log`);
    expect(nginx.config).not.toContain("/var/");
    // nginx writes a request's log line once the answer is sent.
    await expect.poll(async () => (await nginx.accessLog()).match(/"GET \/hello\?x=1 /g)?.length).toBe(2);
  } finally {
    await nginx.stop();
  }
  expect(existsSync(nginx.dir)).toBe(false);
  await nginx.stop();
});

it("fails with nginx's own words when the configuration is wrong", async () => {
  await expect(
    startNginx({ http: ({ ports }) => `server { listen 127.0.0.1:${ports[0]}; bogus_directive on; }` }),
  ).rejects.toThrow(/unknown directive "bogus_directive"/);
});
