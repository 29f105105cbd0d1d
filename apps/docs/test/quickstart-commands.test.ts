import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

// The quickstart's first three commands, each with the output the page shows beside it: run as written, they must
// print that output, apart from what differs on every run (ports, ids, times).

const run = promisify(execFile);

/** The command `npx @pigeonhole/server` runs: the bin of the server package the docs are built against. */
const BIN = join(
  dirname(fileURLToPath(import.meta.resolve("@pigeonhole/server/package.json"))),
  "bin/pigeonhole-server.js",
);

const example = (file: string) => readFile(join(SITE_ROOT, "examples/guides/quickstart", file), "utf8");

/** The address and key the commands name: the local server's defaults. */
const DOCUMENTED_URL = "http://127.0.0.1:4010";
const DEVELOPMENT_KEY = "pigeonhole-inbox-dev";

/** Replaces what differs on every run (times, message and thread ids, the pod's id) by what it is. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(shape);
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shape(item)]));
  }
  if (typeof value === "string") {
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) {
      return "<time>";
    }
    if (/^<[^<>@\s]+@pigeonhole\.test>$/.test(value)) {
      return "<message id>";
    }
    if (/^thd_[A-Za-z0-9]+$/.test(value)) {
      return "<thread id>";
    }
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(value)) {
      return "<uuid>";
    }
  }
  return value;
}

describe("the quickstart's first command", () => {
  it("starts the server, which prints what the page shows", async () => {
    const command = (await example("start.sh")).trim();
    const args = command.replace(/^npx @pigeonhole\/server\s*/, "").split(/\s+/);
    expect(args).toEqual(["--memory"]);
    // On ports the OS picks rather than 4010, 4020 and 2525, which another server may hold; the check maps them back.
    const child = spawn(
      process.execPath,
      [BIN, ...args, "--inbox-port", "0", "--forum-port", "0", "--smtp-port", "0"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      let banner = "";
      child.stdout.on("data", (chunk: Buffer) => {
        banner += chunk.toString();
      });
      const [exit] = await Promise.race([
        once(child, "exit"),
        (async () => {
          while (!banner.includes("Press Ctrl+C to stop.\n")) {
            await once(child.stdout, "data");
          }
          return [undefined];
        })(),
      ]);
      expect(exit, banner).toBeUndefined();
      const port = (label: string) => new RegExp(`${label}\\s+\\w+://127\\.0\\.0\\.1:(\\d+)`).exec(banner)?.[1];
      const documented = [
        [port("Inbox API"), "4010"],
        [port("Forum API"), "4020"],
        [port("SMTP"), "2525"],
      ] as const;
      let shown = banner;
      for (const [actual, expected] of documented) {
        expect(actual, banner).toBeDefined();
        shown = shown.replaceAll(`127.0.0.1:${actual}`, `127.0.0.1:${expected}`);
      }
      expect(shown).toBe(await example("start.txt"));
    } finally {
      child.kill("SIGTERM");
      if (child.exitCode === null) {
        await once(child, "exit");
      }
    }
  });
});

describe("the quickstart's curl commands", () => {
  let server: Server;
  /** Holds curl's configuration: no progress meter, which curl shows when its output is not a terminal. */
  let curlHome: string;

  beforeAll(async () => {
    server = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
    curlHome = await mkdtemp(join(tmpdir(), "pigeonhole-quickstart-curl-"));
    await writeFile(join(curlHome, ".curlrc"), "silent\nshow-error\n");
  });

  afterAll(async () => {
    await server?.close();
    if (curlHome) {
      await rm(curlHome, { recursive: true, force: true });
    }
  });

  it("use the server's development key", () => {
    expect(server.inbox.apiKey).toBe(DEVELOPMENT_KEY);
  });

  it.each([
    ["create-inbox.sh", "create-inbox.txt"],
    ["send.sh", "send.txt"],
  ])("%s prints what the page shows", async (script, output) => {
    const command = (await example(script)).replaceAll(DOCUMENTED_URL, server.inbox.url);
    const { stdout } = await run("sh", ["-c", command], {
      timeout: 20_000,
      env: { PATH: process.env.PATH, HOME: curlHome, CURL_HOME: curlHome },
    });
    expect(shape(JSON.parse(stdout))).toEqual(shape(JSON.parse(await example(output))));
  });
});
