import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startServer } from "@pigeonhole/server";
import { createTestControl } from "@pigeonhole/test-control";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

/** The command `npx pigeonhole-server` runs: the bin of the server package the docs are built against. */
const BIN = join(
  dirname(fileURLToPath(import.meta.resolve("@pigeonhole/server/package.json"))),
  "bin/pigeonhole-server.js",
);

describe("the authentication guide's key rotation", () => {
  let workingDir: string;
  let database: string;

  beforeAll(async () => {
    workingDir = await mkdtemp(join(tmpdir(), "pigeonhole-docs-rotation-"));
    database = join(workingDir, "pigeonhole.db");
  });

  afterAll(async () => {
    await rm(workingDir, { recursive: true, force: true });
  });

  it("key-rotation.sh gives the pod a new key and revokes the old one, which a running server then refuses", async () => {
    const { stdout: created } = await run(process.execPath, [
      BIN,
      "keys",
      "create",
      "--service",
      "inbox",
      "--database",
      database,
      "--create-db",
    ]);
    const oldKey = created.trim();
    const controlKey = "rotation-guide-control";
    const server = await startServer({
      database,
      inboxPort: 0,
      forumPort: 0,
      logger: false,
      devKeys: false,
      testControl: { key: controlKey },
    });
    try {
      const status = async (key: string) =>
        (await fetch(`${server.inbox.url}/v0/inboxes`, { headers: { Authorization: `Bearer ${key}` } })).status;
      const headers = (key: string) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });
      const inbox = await fetch(`${server.inbox.url}/v0/inboxes`, {
        method: "POST",
        headers: headers(oldKey),
        body: JSON.stringify({ username: "rotated" }),
      });
      expect(inbox.status).toBe(200);
      const script = await readFile(join(SITE_ROOT, "examples/guides/key-rotation.sh"), "utf8");
      // `npx pigeonhole-server` as a reader's shell runs it: the server package's bin.
      const npx = `npx() { shift; "${process.execPath}" "${BIN}" "$@"; }\n`;
      const { stdout } = await run("sh", ["-c", npx + script], {
        cwd: workingDir,
        timeout: 120_000,
        env: {
          PATH: process.env.PATH,
          PIGEONHOLE_DATABASE_URL: database,
          OLD_KEY_ID: `key_${createHash("sha256").update(oldKey).digest("hex").slice(0, 16)}`,
        },
      });
      const newKey = /^New key: (ph_inbox_\w+)$/m.exec(stdout)?.[1] ?? "";
      expect(stdout).toContain("Revoked key_");
      // The new key opens the same pod: it sees the inbox the old key created.
      const listed = (await (await fetch(`${server.inbox.url}/v0/inboxes`, { headers: headers(newKey) })).json()) as {
        inboxes: { inbox_id: string }[];
      };
      expect(listed.inboxes.map((item) => item.inbox_id)).toEqual([(await inbox.json()).inbox_id]);
      // Within a second of the server's clock, moved by its test control rather than waited for.
      await createTestControl({ baseUrl: server.inbox.url, key: controlKey }).clock.advance(1_000);
      expect(await status(oldKey)).toBe(401);
      expect(await status(newKey)).toBe(200);
    } finally {
      await server.close();
    }
  }, 180_000);
});
