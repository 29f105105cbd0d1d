import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { isRunning } from "@pigeonhole/test-processes";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRelay } from "../src/index.ts";

let parent: string;
beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), "mail-testing-"));
  await chmod(parent, 0o755); // Postfix's processes run as `postfix` and must reach the queue
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

it("stops a relay whose process was killed outright when the next one starts", async () => {
  const program = `
    const { startRelay } = await import(${JSON.stringify(new URL("../src/index.ts", import.meta.url).href)});
    const relay = await startRelay({ parentDir: ${JSON.stringify(parent)} });
    process.stdout.write(relay.dir + "\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "--eval", program], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [dir] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  const master = Number((await readFile(join(dir, "queue", "pid", "master.pid"), "utf8")).trim());
  child.kill("SIGKILL");
  await once(child, "exit");
  expect(isRunning(master)).toBe(true); // no exit handler ran: Postfix is an orphan

  const next = await startRelay({ parentDir: parent });
  const deadline = Date.now() + 10_000;
  while (isRunning(master) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(isRunning(master)).toBe(false);
  expect(existsSync(dir)).toBe(false);
  await next.stop();
  expect(await readdir(parent)).toEqual([]);
});
