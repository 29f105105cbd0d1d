// Packs every published package of the client stack as npm would ship it, lints the tarballs with publint and
// arethetypeswrong, installs them into a fresh project outside the workspace, and there typechecks (tsc, nodenext)
// and runs a program that calls each package against a local HTTP server.
import { execFile, execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const packagesDir = resolve(import.meta.dirname, "../..");
const PACKAGES = ["client-core", "inbox-types", "forum-types", "inbox", "forum"] as const;
/** Resolutions of CommonJS-only consumers: the packages are ESM-only, which Node >= 20.19 can `require`. */
const CJS_ONLY = new Set(["node10", "node16-cjs"]);
interface AttwProblem {
  kind: string;
  entrypoint: string;
  resolutionKind: string;
}
const WEBHOOK_SECRET = `whsec_${Buffer.from("pack-check-signing-key").toString("base64")}`;

/** A Node 20 binary on this machine (the system's, outside pnpm's PATH), to prove the engines floor. */
const OLDEST_NODE = ["/usr/bin/node", "/usr/local/bin/node"].find((candidate) => {
  try {
    return existsSync(candidate) && execFileSync(candidate, ["--version"], { encoding: "utf8" }).startsWith("v20.");
  } catch {
    return false;
  }
});

let workDir: string;
const tarballs = new Map<string, string>();
let server: Server;
let baseUrl: string;

/** Runs a command, failing with its output (not just an exit code) when it fails. */
async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

/** A tiny stand-in for both services: a list of one item per service, and a 404 in each service's envelope. */
function startServer(): Promise<string> {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json", "x-request-id": "req_pack" });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== "Bearer pack-key") {
      json(401, {
        error: { type: "authentication_error", message: "Bad key", details: { field: null, code: "INVALID_API_KEY" } },
      });
    } else if (url.pathname === "/v0/inboxes") {
      const inbox = {
        pod_id: "p",
        inbox_id: "pack@pigeonhole.test",
        display_name: null,
        client_id: null,
        created_at: "",
        updated_at: "",
      };
      json(200, { count: 1, limit: 20, next_page_token: null, inboxes: [inbox] });
    } else if (url.pathname.startsWith("/v0/")) {
      json(404, {
        error: { type: "not_found_error", message: "No such inbox", details: { field: null, code: "NOT_FOUND" } },
      });
    } else if (url.pathname === "/api/v1/posts") {
      json(200, { success: true, posts: [{ id: "p1", title: "Packed" }], count: 1, has_more: false, next_offset: 1 });
    } else {
      json(404, { success: false, error: "No such post", code: "NOT_FOUND", hint: "List posts first." });
    }
  });
  return new Promise((resolvePort) => {
    server.listen(0, "127.0.0.1", () => resolvePort(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

/** The program's inputs: where the server is, and a webhook delivery signed (by hand, with node:crypto) just now. */
function sampleConfig() {
  const body = JSON.stringify({ type: "event", event_type: "message.sent", event_id: "evt_1", send: {} });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(WEBHOOK_SECRET.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`msg_1.${timestamp}.${body}`).digest("base64");
  return {
    baseUrls: { inbox: baseUrl, forum: baseUrl },
    delivery: {
      body,
      headers: { "webhook-id": "msg_1", "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` },
      secret: WEBHOOK_SECRET,
    },
  };
}

const consumerProgram = `
import { createTransport, PigeonholeError } from "@pigeonhole/client-core";
import { createForumClient, NotFoundError as ForumNotFound, type Post } from "@pigeonhole/forum";
import type { paths as ForumPaths } from "@pigeonhole/forum-types";
import { createInboxClient, NotFoundError, type Inbox, verifyWebhook, type WebhookEvent } from "@pigeonhole/inbox";
import type { ListInboxesResponse } from "@pigeonhole/inbox-types";

import config from "./config.json" with { type: "json" };

const { baseUrls, delivery } = config;

const inbox = createInboxClient({ apiKey: "pack-key", baseUrl: baseUrls.inbox });
const page: ListInboxesResponse = await inbox.get("/v0/inboxes");
const all: Inbox[] = [];
for await (const item of inbox.paginate("/v0/inboxes")) {
  all.push(item);
}
const missing = await inbox.get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "x@y.z" } } }).catch((e: unknown) => e);
const event: WebhookEvent = await verifyWebhook(delivery.body, delivery.headers, delivery.secret);

const forum = createForumClient({ apiKey: "pack-key", baseUrl: baseUrls.forum });
const posts: Post[] = (await forum.get("/api/v1/posts")).posts;
const missingPost = await forum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: "p9" } } });
type PostsPath = keyof ForumPaths;
const postsPath: PostsPath = "/api/v1/posts";

const transport = createTransport({ maxRetries: 0 });
const raw = await transport(new Request(baseUrls.forum + postsPath, { headers: { authorization: "Bearer pack-key" } }));

console.log(JSON.stringify({
  firstInbox: page.inboxes[0]?.inbox_id,
  paginated: all.length,
  notFound: missing instanceof NotFoundError && missing instanceof PigeonholeError ? missing.message : String(missing),
  eventType: event.event_type,
  firstPost: posts[0]?.title,
  missingPost: missingPost.error?.code,
  forumNotFoundIsClass: typeof ForumNotFound === "function",
  transportStatus: raw.status,
}));
`;

/** The same calls as plain JavaScript, for a Node without type stripping. */
const smokeProgram = `
import { readFile } from "node:fs/promises";
import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient, verifyWebhook } from "@pigeonhole/inbox";

const { baseUrls, delivery } = JSON.parse(await readFile("config.json", "utf8"));
const inbox = createInboxClient({ apiKey: "pack-key", baseUrl: baseUrls.inbox });
const forum = createForumClient({ apiKey: "pack-key", baseUrl: baseUrls.forum });
const inboxes = (await inbox.paginate("/v0/inboxes").toArray()).map((item) => item.inbox_id);
const posts = (await forum.get("/api/v1/posts")).posts.map((post) => post.title);
const event = await verifyWebhook(delivery.body, delivery.headers, delivery.secret);
console.log(JSON.stringify({ node: process.version, inboxes, posts, eventType: event.event_type }));
`;

const consumerTsconfig = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    resolveJsonModule: true,
    types: [],
  },
  files: ["index.ts"],
};

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "pigeonhole-pack-"));
  const tarballDir = join(workDir, "tarballs");
  await mkdir(tarballDir);
  for (const name of PACKAGES) {
    const before = new Set(await readdir(tarballDir));
    await sh("pnpm", ["pack", "--pack-destination", tarballDir], join(packagesDir, name));
    const created = (await readdir(tarballDir)).find((file) => !before.has(file));
    if (!created) {
      throw new Error(`pnpm pack of ${name} produced no tarball`);
    }
    tarballs.set(name, join(tarballDir, created));
  }
  baseUrl = await startServer();
}, 120_000);

afterAll(async () => {
  server?.close();
  if (workDir) {
    await rm(workDir, { recursive: true, force: true });
  }
});

describe("published tarballs", () => {
  it.each(PACKAGES)("%s passes publint with no message at all", async (name) => {
    const file = await readFile(tarballs.get(name) ?? "");
    const tarball = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    const { messages, pkg } = await publint({ pack: { tarball }, level: "suggestion", strict: true });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  });

  it("all pass arethetypeswrong for ESM importers and bundlers", async () => {
    const cli = join(dirname(require.resolve("@arethetypeswrong/cli/package.json")), "dist/index.js");
    const reports = await Promise.all(
      PACKAGES.map(async (name) => {
        // Exits non-zero on a problem under the ESM-only profile; the JSON lists every problem for the message.
        const output = await sh(
          process.execPath,
          [cli, tarballs.get(name) ?? "", "--profile", "esm-only", "--format", "json"],
          workDir,
        );
        const { analysis } = JSON.parse(output) as { analysis: { packageName: string; problems: AttwProblem[] } };
        return {
          name: analysis.packageName,
          problems: analysis.problems.filter((p) => !CJS_ONLY.has(p.resolutionKind)),
        };
      }),
    );
    expect(reports).toEqual(PACKAGES.map((name) => ({ name: `@pigeonhole/${name}`, problems: [] })));
  }, 120_000);
});

describe("installed into a fresh project", () => {
  let projectDir: string;

  beforeAll(async () => {
    projectDir = join(workDir, "project");
    await mkdir(projectDir);
    const file = (name: string) => `file:${tarballs.get(name)}`;
    const manifest = {
      name: "pigeonhole-pack-check",
      private: true,
      type: "module",
      dependencies: { "@pigeonhole/inbox": file("inbox"), "@pigeonhole/forum": file("forum") },
      devDependencies: {
        "@pigeonhole/client-core": file("client-core"),
        "@pigeonhole/inbox-types": file("inbox-types"),
        "@pigeonhole/forum-types": file("forum-types"),
      },
      // The tarballs depend on each other by version, which no registry has yet: point those at the tarballs too.
      pnpm: {
        overrides: Object.fromEntries(PACKAGES.map((name) => [`@pigeonhole/${name}`, file(name)])),
      },
    };
    await writeFile(join(projectDir, "package.json"), JSON.stringify(manifest, null, 2));
    await writeFile(join(projectDir, "tsconfig.json"), JSON.stringify(consumerTsconfig, null, 2));
    await writeFile(join(projectDir, "index.ts"), consumerProgram);
    await writeFile(join(projectDir, "config.json"), JSON.stringify(sampleConfig()));
    await sh(
      "pnpm",
      ["install", "--prefer-offline", "--ignore-workspace", "--config.confirmModulesPurge=false"],
      projectDir,
    );
  }, 120_000);

  it("typechecks a consumer with tsc under moduleResolution nodenext", async () => {
    const tsc = require.resolve("typescript/bin/tsc");
    await expect(sh(process.execPath, [tsc, "-p", "."], projectDir)).resolves.toBe("");
  }, 60_000);

  it("runs the consumer against a local server", async () => {
    // Fresh values: the webhook timestamp must be recent when the program verifies it.
    await writeFile(join(projectDir, "config.json"), JSON.stringify(sampleConfig()));
    const output = await sh(process.execPath, ["index.ts"], projectDir);
    expect(JSON.parse(output)).toEqual({
      firstInbox: "pack@pigeonhole.test",
      paginated: 1,
      notFound: "404 NOT_FOUND: No such inbox (request req_pack)",
      eventType: "message.sent",
      firstPost: "Packed",
      missingPost: "NOT_FOUND",
      forumNotFoundIsClass: true,
      transportStatus: 200,
    });
  }, 60_000);

  it.runIf(OLDEST_NODE)(
    "runs on the oldest supported Node, 20",
    async () => {
      await writeFile(join(projectDir, "config.json"), JSON.stringify(sampleConfig()));
      await writeFile(join(projectDir, "smoke.mjs"), smokeProgram);
      const output = await sh(OLDEST_NODE ?? "", ["smoke.mjs"], projectDir);
      expect(JSON.parse(output)).toEqual({
        node: expect.stringMatching(/^v20\./),
        inboxes: ["pack@pigeonhole.test"],
        posts: ["Packed"],
        eventType: "message.sent",
      });
    },
    60_000,
  );

  it("can be required from CommonJS on Node >= 20.19", async () => {
    const script = 'const { createInboxClient } = require("@pigeonhole/inbox"); console.log(typeof createInboxClient);';
    await expect(sh(process.execPath, ["-e", script], projectDir)).resolves.toBe("function\n");
  });
});
