import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Server, startServer } from "@pigeonhole/server";
import { createTestControl } from "@pigeonhole/test-control";
import { describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

// The guide's test files (`examples/guides/testing/*.test.ts`) run as tests of their own; these are its shell commands.
const run = promisify(execFile);

/** The command `npx pigeonhole-server` runs: the bin of the server package the docs are built against. */
const BIN = join(
  dirname(fileURLToPath(import.meta.resolve("@pigeonhole/server/package.json"))),
  "bin/pigeonhole-server.js",
);

const example = (file: string) => readFile(join(SITE_ROOT, "examples/guides", file), "utf8");

describe("the testing guide's commands", () => {
  it("testing-start.sh starts a server whose test control answers with the default key", async () => {
    const command = (await example("testing-start.sh")).split("\n").find((line) => line.startsWith("npx "));
    const args = command?.replace(/^npx pigeonhole-server\s*/, "").split(/\s+/) ?? [];
    expect(args).toEqual(["--memory", "--allow-private-webhooks"]);
    // As documented, on ports the OS picks rather than 4010 and 4020, which another server may hold.
    const child = spawn(
      process.execPath,
      [BIN, ...args, "--inbox-port", "0", "--forum-port", "0", "--smtp-port", "0"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      let banner = "";
      child.stdout.on("data", (chunk: Buffer) => {
        banner += chunk.toString();
      });
      const deadline = Date.now() + 15_000;
      while (!/Press Ctrl\+C/.test(banner)) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`the server did not start: ${banner}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const testUrl = /Test\s+(http:\/\/\S+)\/_test\s+key: (\S+)/.exec(banner);
      expect(testUrl?.[2]).toBe("pigeonhole-test-control-dev");
      // The client's defaults are that key; only the address differs from the documented one.
      const clock = await createTestControl({ baseUrl: testUrl?.[1] }).clock.get();
      expect(clock.offset_ms).toBe(0);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  async function checkOff(server: Server): Promise<{ code: number; stdout: string; stderr: string }> {
    const script = await example("testing-off-in-production.sh");
    return run("sh", ["-c", script], {
      timeout: 20_000,
      env: {
        PATH: process.env.PATH,
        HOME: SITE_ROOT,
        PIGEONHOLE_INBOX_BASE_URL: server.inbox.url,
        PIGEONHOLE_INBOX_API_KEY: server.inbox.apiKey,
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  }

  it("testing-off-in-production.sh passes against a server started without test control", async () => {
    const server = await startServer({
      inboxPort: 0,
      forumPort: 0,
      database: ":memory:",
      logger: false,
      testControl: false,
    });
    try {
      expect(await checkOff(server)).toMatchObject({ code: 0, stdout: "test control is off\n" });
    } finally {
      await server.close();
    }
  });

  it("testing-off-in-production.sh fails against a server with test control on", async () => {
    const server = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
    try {
      expect(await checkOff(server)).toMatchObject({
        code: 1,
        stdout: "",
        // Test control refuses the inbox's key: it has one of its own.
        stderr: "test control answers 401: start the server without it\n",
      });
    } finally {
      await server.close();
    }
  });
});
