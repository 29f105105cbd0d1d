import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { isRunning } from "@pigeonhole/test-processes";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startNginx } from "../src/index.ts";

let parent: string;
beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), "nginx-testing-"));
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

const listenOn = ({ ports }: { ports: readonly number[] }) => `server { listen 127.0.0.1:${ports[0]}; return 204; }`;

it("stops an nginx whose process was killed outright when the next one starts", async () => {
  const program = `
    const { startNginx } = await import(${JSON.stringify(new URL("../src/index.ts", import.meta.url).href)});
    const nginx = await startNginx({
      parentDir: ${JSON.stringify(parent)},
      http: ({ ports }) => \`server { listen 127.0.0.1:\${ports[0]}; return 204; }\`,
    });
    process.stdout.write(nginx.dir + "\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "--eval", program], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [dir] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  const master = Number((await readFile(join(dir, "nginx.pid"), "utf8")).trim());
  child.kill("SIGKILL");
  await once(child, "exit");
  expect(isRunning(master)).toBe(true); // no exit handler ran: nginx is an orphan

  const next = await startNginx({ parentDir: parent, http: listenOn });
  const deadline = Date.now() + 10_000;
  while (isRunning(master) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(isRunning(master)).toBe(false);
  expect(existsSync(dir)).toBe(false);
  await next.stop();
  expect(await readdir(parent)).toEqual([]);
});
