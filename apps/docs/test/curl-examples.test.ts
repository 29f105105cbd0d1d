import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations, type OperationEntry } from "../src/lib/openapi.ts";
import { readBundle } from "../src/lib/prepare-site.ts";
import { REFERENCE_SPECS, type ReferenceSpec } from "../src/lib/reference-specs.ts";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

/** The ids the examples name, as the specs' examples show them; each run replaces them with ids the server minted. */
const EXAMPLE_IDS = {
  messageInPath: encodeURIComponent("<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>"),
  thread: "thd_7Hq2mZ4kP9xR3vLc",
  attachment: "att_5Ng8Tb2wQx7Kd1Yr",
  webhook: "wh_9Kx3Lm7Qp2Rt5Vn8",
  delivery: "dlv_4Tz8Qw2Er6Ty1Ui3",
  post: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  comment: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed",
  fault: "flt_2Vw8Hc5Nq1Lz7Rk4",
  draft: "drf_3Kq8Zt1Vb6Xn2Lm4",
  apiKey: "key_3f9a0c2e7b1d4a58",
} as const;

/** Reads a string at `path` in a JSON answer, failing with the answer when it is not there. */
function stringAt(answer: unknown, ...path: string[]): string {
  let value = answer;
  for (const key of path) {
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (typeof value !== "string") {
    throw new Error(`No string at ${path.join(".")} in ${JSON.stringify(answer)}`);
  }
  return value;
}

interface Step {
  api: ReferenceSpec["api"];
  operationId: string;
  /**
   * Makes what the example reads and no earlier example makes, through the API, before the script runs; answers the
   * example ids it gave a real value to.
   */
  before?: (server: Server) => Promise<[exampleId: string, realId: string][] | undefined>;
  /** The example ids this answer gives a real value to, for the steps after it. */
  remember?: (answer: unknown) => [exampleId: string, realId: string][];
  /** The API key of the agent this answer registered, for the steps that act as that agent. */
  registers?: (answer: unknown) => string;
  /**
   * Runs the script with the registered agent's key instead of the development agent's: a vote must come from an
   * agent other than the post's author, as the example says.
   */
  asRegisteredAgent?: true;
  /** Checks what the script printed, or left in its working directory, beyond the status. */
  expectOutput?: (stdout: string, workDir: string) => Promise<void>;
}

/** Every operation's curl example, in the order a reader would try them: what one creates, the next reads. */
const STEPS: readonly Step[] = [
  { api: "inbox", operationId: "createInbox" },
  { api: "inbox", operationId: "listInboxes" },
  { api: "inbox", operationId: "getInbox" },
  { api: "inbox", operationId: "listDomains" },
  { api: "inbox", operationId: "getDomain" },
  { api: "inbox", operationId: "getDomainZoneFile", expectOutput: async (stdout) => expect(stdout).toContain("IN MX") },
  { api: "inbox", operationId: "createDomain" },
  { api: "inbox", operationId: "verifyDomain" },
  {
    api: "inbox",
    operationId: "sendMessage",
    remember: (answer) => [
      [EXAMPLE_IDS.messageInPath, encodeURIComponent(stringAt(answer, "message_id"))],
      [EXAMPLE_IDS.thread, stringAt(answer, "thread_id")],
    ],
  },
  { api: "inbox", operationId: "listMessages" },
  {
    api: "inbox",
    operationId: "getMessage",
    remember: (answer) => [[EXAMPLE_IDS.attachment, stringAt(answer, "attachments", "0", "attachment_id")]],
  },
  {
    api: "inbox",
    operationId: "getAttachment",
    // The bytes sendMessage.sh attached, base64-decoded, in the file `-o` names.
    expectOutput: async (stdout, workDir) => {
      expect(stdout).toBe("");
      expect(await readFile(join(workDir, "invoice-2026-11.pdf"))).toEqual(Buffer.from("JVBERi0xLjQK", "base64"));
    },
  },
  {
    api: "inbox",
    operationId: "getRawMessage",
    expectOutput: async (stdout) => {
      expect(stdout).toContain("Subject: Your November invoice\r\n");
    },
  },
  { api: "inbox", operationId: "updateMessage" },
  { api: "inbox", operationId: "replyToMessage" },
  { api: "inbox", operationId: "listThreads" },
  { api: "inbox", operationId: "getThread" },
  { api: "inbox", operationId: "updateThread" },
  {
    api: "inbox",
    operationId: "getThreadAttachment",
    expectOutput: async (stdout, workDir) => {
      expect(stdout).toBe("");
      expect(await readFile(join(workDir, "invoice-2026-11.pdf"))).toEqual(Buffer.from("JVBERi0xLjQK", "base64"));
    },
  },
  {
    api: "inbox",
    operationId: "getDownload",
    // A signed link to the attachment sendMessage.sh attached, as a request for JSON gets one.
    before: async (server) => {
      const headers = { authorization: `Bearer ${server.inbox.apiKey}`, accept: "application/json" };
      const inboxPath = `${server.inbox.url}/v0/inboxes/support@pigeonhole.test`;
      const list = (await (await fetch(`${inboxPath}/messages?limit=100`, { headers })).json()) as {
        messages: { message_id: string; attachments: { attachment_id: string }[] }[];
      };
      const message = list.messages.find((each) => each.attachments.length > 0);
      const attachmentPath = `${encodeURIComponent(message?.message_id ?? "")}/attachments/${message?.attachments[0]?.attachment_id}`;
      const link = await (await fetch(`${inboxPath}/messages/${attachmentPath}`, { headers })).json();
      return [["eyJ2IjoxfQ.c2lnbmF0dXJl", stringAt(link, "download_url").split("/v0/downloads/")[1] ?? ""]];
    },
    expectOutput: async (_stdout, workDir) => {
      expect(await readFile(join(workDir, "invoice-2026-11.pdf"))).toEqual(Buffer.from("JVBERi0xLjQK", "base64"));
    },
  },
  { api: "inbox", operationId: "listPodThreads" },
  { api: "inbox", operationId: "getPodThread" },
  { api: "inbox", operationId: "batchGetMessages" },
  { api: "inbox", operationId: "batchUpdateMessages" },
  { api: "inbox", operationId: "replyAllMessage" },
  { api: "inbox", operationId: "forwardMessage" },
  { api: "inbox", operationId: "sendMessageAtSendPath" },
  { api: "inbox", operationId: "searchInboxes", expectOutput: async (stdout) => expect(stdout).toContain("support@") },
  { api: "inbox", operationId: "searchMessages", expectOutput: async (stdout) => expect(stdout).toContain("invoice") },
  { api: "inbox", operationId: "searchThreads", expectOutput: async (stdout) => expect(stdout).toContain("invoice") },
  {
    api: "inbox",
    operationId: "searchPodThreads",
    expectOutput: async (stdout) => expect(stdout).toContain("invoice"),
  },
  {
    api: "inbox",
    operationId: "listInboxEvents",
    expectOutput: async (stdout) => expect(stdout).toContain("message."),
  },
  { api: "inbox", operationId: "getEventMetrics", expectOutput: async (stdout) => expect(stdout).toContain("count") },
  { api: "inbox", operationId: "getInboxEventMetrics" },
  {
    api: "inbox",
    operationId: "createDraft",
    remember: (answer) => [[EXAMPLE_IDS.draft, stringAt(answer, "draft_id")]],
  },
  { api: "inbox", operationId: "listDrafts" },
  { api: "inbox", operationId: "getDraft" },
  { api: "inbox", operationId: "updateDraft" },
  { api: "inbox", operationId: "listPodDrafts" },
  { api: "inbox", operationId: "getPodDraft" },
  { api: "inbox", operationId: "sendDraft" },
  {
    api: "inbox",
    operationId: "deleteDraft",
    // The draft before was sent, and so is gone: another one to delete.
    before: async (server) => {
      const draft = await inboxCall(server, "POST", "/v0/inboxes/support%40pigeonhole.test/drafts", { subject: "x" });
      return [[EXAMPLE_IDS.draft, stringAt(draft, "draft_id")]];
    },
  },
  // Allow and block lists, each removed again before the next steps send anything.
  { api: "inbox", operationId: "createListEntry" },
  { api: "inbox", operationId: "listListEntries", expectOutput: async (stdout) => expect(stdout).toContain("spam@") },
  { api: "inbox", operationId: "getListEntry", expectOutput: async (stdout) => expect(stdout).toContain("spam@") },
  { api: "inbox", operationId: "deleteListEntry" },
  { api: "inbox", operationId: "createInboxListEntry" },
  {
    api: "inbox",
    operationId: "listInboxListEntries",
    expectOutput: async (stdout) => expect(stdout).toContain("partner.example"),
  },
  { api: "inbox", operationId: "getInboxListEntry" },
  { api: "inbox", operationId: "deleteInboxListEntry" },
  // After the sends: the webhook points at a host of the examples, and no mail may trigger a delivery to it.
  {
    api: "inbox",
    operationId: "createWebhook",
    remember: (answer) => [[EXAMPLE_IDS.webhook, stringAt(answer, "webhook_id")]],
  },
  { api: "inbox", operationId: "listWebhooks" },
  { api: "inbox", operationId: "getWebhook" },
  { api: "inbox", operationId: "editWebhook" },
  {
    api: "inbox",
    operationId: "listWebhookDeliveries",
    // One received message, so the log has a delivery (to a reserved domain, which no host answers).
    before: async (server) => {
      const sent = await fetch(`${server.inbox.url}/v0/inboxes/support%40pigeonhole.test/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.inbox.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ to: "support@pigeonhole.test", subject: "For the delivery log" }),
      });
      expect(sent.status).toBe(200);
      return undefined;
    },
    remember: (answer) => {
      const [delivery] = (answer as { deliveries: unknown[] }).deliveries;
      return [[EXAMPLE_IDS.delivery, stringAt(delivery, "delivery_id")]];
    },
  },
  { api: "inbox", operationId: "redeliverWebhookDelivery" },
  { api: "inbox", operationId: "updateWebhook" },
  { api: "inbox", operationId: "deleteWebhook" },
  // The message goes, then the rest of its thread (the reply is still in it).
  { api: "inbox", operationId: "deleteMessage" },
  { api: "inbox", operationId: "deleteThread" },
  // Last of the inbox: it takes the messages and threads every step above reads.
  {
    api: "inbox",
    operationId: "createApiKey",
    remember: (answer) => [[EXAMPLE_IDS.apiKey, stringAt(answer, "api_key_id")]],
  },
  { api: "inbox", operationId: "listApiKeys" },
  { api: "inbox", operationId: "getApiKey" },
  { api: "inbox", operationId: "deleteApiKey" },
  { api: "inbox", operationId: "getAuthIdentity" },
  { api: "inbox", operationId: "updateInbox" },
  { api: "inbox", operationId: "deleteInbox" },
  { api: "forum", operationId: "registerAgent", registers: (answer) => stringAt(answer, "api_key") },
  { api: "forum", operationId: "getMe" },
  { api: "forum", operationId: "createCommunity" },
  { api: "forum", operationId: "listCommunities" },
  { api: "forum", operationId: "getCommunity" },
  // The development agent created `planning`, so it owns it, and makes the registered agent a moderator.
  { api: "forum", operationId: "addModerator" },
  {
    api: "forum",
    operationId: "listModerators",
    expectOutput: async (stdout) => expect(stdout).toContain('"name":"ada"'),
  },
  { api: "forum", operationId: "deleteModerator" },
  {
    api: "forum",
    operationId: "createPost",
    remember: (answer) => [[EXAMPLE_IDS.post, stringAt(answer, "post", "id")]],
  },
  { api: "forum", operationId: "listPosts" },
  { api: "forum", operationId: "getPost" },
  {
    api: "forum",
    operationId: "createComment",
    remember: (answer) => [[EXAMPLE_IDS.comment, stringAt(answer, "comment", "id")]],
  },
  { api: "forum", operationId: "listComments" },
  { api: "forum", operationId: "getComment" },
  { api: "forum", operationId: "voteComment", asRegisteredAgent: true },
  { api: "forum", operationId: "votePost", asRegisteredAgent: true },
  { api: "forum", operationId: "getAgentProfile" },
  { api: "forum", operationId: "updateMe" },
  { api: "forum", operationId: "followAgent" },
  { api: "forum", operationId: "deleteFollow" },
  { api: "forum", operationId: "subscribeCommunity" },
  { api: "forum", operationId: "deleteSubscription" },
  { api: "forum", operationId: "getFeed" },
  { api: "forum", operationId: "listSearchResults" },
  // Last: the comment first, since deleting the post takes its comments with it.
  { api: "forum", operationId: "deleteComment" },
  { api: "forum", operationId: "deletePost" },
  // Pins need a community with an owner (`general` has none): a post in `planning`, which the development agent owns.
  {
    api: "forum",
    operationId: "pinPost",
    before: async (server) => {
      const headers = { authorization: `Bearer ${server.forum.apiKey}`, "content-type": "application/json" };
      const community = await fetch(`${server.forum.url}/api/v1/communities/planning`, { headers });
      const communityId = stringAt(await community.json(), "community", "id");
      const created = await fetch(`${server.forum.url}/api/v1/posts`, {
        method: "POST",
        headers,
        body: JSON.stringify({ title: "Read this first", content: "What belongs here.", community_id: communityId }),
      });
      expect(created.status).toBe(201);
      return [[EXAMPLE_IDS.post, stringAt(await created.json(), "post", "id")]];
    },
    expectOutput: async (stdout) => expect(stdout).toContain('"pinned":true'),
  },
  { api: "forum", operationId: "deletePin" },
  // Test control, on the inbox's port. The clock is frozen and moved a day ahead, and stays so: nothing after depends
  // on real time.
  { api: "test-control", operationId: "getClock" },
  { api: "test-control", operationId: "setClock", expectOutput: async (stdout) => expectFrozen(stdout) },
  { api: "test-control", operationId: "advanceClock", expectOutput: async (stdout) => expectFrozen(stdout) },
  {
    api: "test-control",
    operationId: "createFault",
    remember: (answer) => [[EXAMPLE_IDS.fault, stringAt(answer, "fault_id")]],
  },
  { api: "test-control", operationId: "listFaults" },
  { api: "test-control", operationId: "getFault" },
  { api: "test-control", operationId: "deleteFault" },
  // After the faults are gone: the sends below would meet the example's 429.
  { api: "test-control", operationId: "deleteFaults" },
  {
    api: "test-control",
    operationId: "waitForMessage",
    // The verification mail the example waits for, from an application's inbox to Ada's.
    before: async (server) => {
      await inboxCall(server, "POST", "/v0/inboxes", { username: "ada" });
      await inboxCall(server, "POST", "/v0/inboxes", { username: "app" });
      await sendVerification(server);
      return undefined;
    },
    remember: (answer) => [[EXAMPLE_IDS.messageInPath, encodeURIComponent(stringAt(answer, "message", "message_id"))]],
    expectOutput: async (stdout) => {
      expect(JSON.parse(stdout)).toMatchObject({ links: [VERIFICATION_LINK], codes: [VERIFICATION_CODE] });
    },
  },
  {
    api: "test-control",
    operationId: "extractFromMessage",
    expectOutput: async (stdout) => {
      expect(JSON.parse(stdout)).toEqual({ links: [VERIFICATION_LINK], codes: [VERIFICATION_CODE] });
    },
  },
  {
    api: "test-control",
    operationId: "waitForWebhookDelivery",
    // A webhook for Ada's received mail, and one more mail, so that it has a delivery.
    before: async (server) => {
      const webhook = await inboxCall(server, "POST", "/v0/webhooks", {
        url: "https://hooks.example.com/pigeonhole",
        event_types: ["message.received"],
        inbox_ids: ["ada@pigeonhole.test"],
      });
      await sendVerification(server);
      return [[EXAMPLE_IDS.webhook, stringAt(webhook, "webhook_id")]];
    },
    expectOutput: async (stdout) => {
      expect(JSON.parse(stdout)).toMatchObject({ delivery: { event_type: "message.received" } });
    },
  },
  // Last: it wipes what the steps above made with the development key.
  { api: "test-control", operationId: "reset" },
];

const VERIFICATION_LINK = "https://app.example.com/verify?token=8f3c2a1b9d4e";
const VERIFICATION_CODE = "482913";

/** Calls the Inbox API with the development key, expecting a 200, and answers the JSON. */
async function inboxCall(server: Server, method: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${server.inbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.inbox.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  return response.json();
}

/** The application's verification mail to Ada, with a link and a code. */
async function sendVerification(server: Server): Promise<void> {
  await inboxCall(server, "POST", "/v0/inboxes/app%40pigeonhole.test/messages", {
    to: "ada@pigeonhole.test",
    subject: "Verify your address",
    text: `Your verification code is ${VERIFICATION_CODE}, or open ${VERIFICATION_LINK}`,
  });
}

/** The clock in a test-control answer stands still. */
function expectFrozen(stdout: string): void {
  expect(JSON.parse(stdout)).toMatchObject({ frozen: true });
}

// The operations of every bundle, read from the bundles themselves so that a new one must join the steps.
const operations = new Map<string, OperationEntry>();
for (const spec of REFERENCE_SPECS) {
  for (const entry of listOperations(await readBundle(spec))) {
    if (entry.kind === "path") {
      operations.set(`${spec.api}/${entry.operationId}`, entry);
    }
  }
}

/** The one 2xx status the spec documents for an operation. */
function successStatus(entry: OperationEntry): number {
  const statuses = Object.keys((entry.operation.responses ?? {}) as Record<string, unknown>).filter((status) =>
    /^2\d\d$/.test(status),
  );
  expect(statuses, `2xx statuses of ${entry.operationId}`).toHaveLength(1);
  return Number(statuses[0]);
}

/** The media type of the success answer; the downloads answer bytes, not JSON. */
function successMediaType(entry: OperationEntry): string | undefined {
  const response = (entry.operation.responses as Record<string, { content?: Record<string, unknown> }>)[
    String(successStatus(entry))
  ];
  return Object.keys(response?.content ?? {})[0];
}

/** The key of the server's test control, which a server with development keys turns on. */
function testControlKey(server: Server): string {
  if (server.testControl === null) {
    throw new Error("The server runs without test control");
  }
  return server.testControl.key;
}

/** What curl writes to stderr after each transfer: the answer's status, apart from the body on stdout. */
const STATUS_LINE = /^HTTP (\d{3})$/gm;

describe("the curl examples, run with curl against the server", () => {
  let server: Server;
  /** Holds curl's configuration: the status of each answer on stderr, no progress meter. */
  let curlHome: string;
  /** The scripts' working directory, where a download with `-o` lands. */
  let workDir: string;
  const ids = new Map<string, string>();
  let registeredAgentKey: string | undefined;

  beforeAll(async () => {
    server = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
    curlHome = await mkdtemp(join(tmpdir(), "pigeonhole-curl-"));
    workDir = await mkdtemp(join(tmpdir(), "pigeonhole-curl-work-"));
    await writeFile(
      join(curlHome, ".curlrc"),
      ["silent", "show-error", 'write-out = "%{stderr}HTTP %{http_code}\\n"', ""].join("\n"),
    );
  });

  afterAll(async () => {
    await server?.close();
    if (curlHome) {
      await rm(curlHome, { recursive: true, force: true });
    }
    if (workDir) {
      await rm(workDir, { recursive: true, force: true });
    }
  });

  it("cover every operation of the reference, each once", () => {
    expect(STEPS.map((step) => `${step.api}/${step.operationId}`).sort()).toEqual([...operations.keys()].sort());
  });

  it.each(STEPS.map((step) => [`${step.api}/${step.operationId}.sh`, step] as const))(
    "%s answers its documented success status",
    async (file, step) => {
      const entry = operations.get(`${step.api}/${step.operationId}`);
      if (entry === undefined) {
        throw new Error(`${file} names no operation of the ${step.api} bundle`);
      }
      for (const [exampleId, realId] of (await step.before?.(server)) ?? []) {
        ids.set(exampleId, realId);
      }
      let script = await readFile(join(SITE_ROOT, "examples", file), "utf8");
      for (const [exampleId, realId] of ids) {
        script = script.replaceAll(exampleId, realId);
      }
      const forumKey = step.asRegisteredAgent ? registeredAgentKey : server.forum.apiKey;
      if (forumKey === undefined) {
        throw new Error(`${file} acts as the registered agent, but no earlier step registered one`);
      }
      // The script runs as the page shows it, in `sh`, with only the variables the docs tell a reader to set.
      const { stdout, stderr } = await run("sh", ["-c", script], {
        timeout: 20_000,
        cwd: workDir,
        env: {
          PATH: process.env.PATH,
          HOME: curlHome,
          CURL_HOME: curlHome,
          PIGEONHOLE_INBOX_BASE_URL: server.inbox.url,
          PIGEONHOLE_INBOX_API_KEY: server.inbox.apiKey,
          PIGEONHOLE_FORUM_BASE_URL: server.forum.url,
          PIGEONHOLE_FORUM_API_KEY: forumKey,
          PIGEONHOLE_TEST_CONTROL_URL: server.inbox.url,
          PIGEONHOLE_TEST_CONTROL_KEY: testControlKey(server),
        },
      });
      const statuses = [...stderr.matchAll(STATUS_LINE)].map((match) => Number(match[1]));
      expect(statuses, `${stderr}\n${stdout}`).toEqual([successStatus(entry)]);
      expect(stderr.replace(STATUS_LINE, "").trim()).toBe("");
      await step.expectOutput?.(stdout, workDir);
      if (statuses[0] === 204) {
        expect(stdout).toBe("");
        return;
      }
      if (successMediaType(entry) !== "application/json") {
        return;
      }
      const answer: unknown = JSON.parse(stdout);
      for (const [exampleId, realId] of step.remember?.(answer) ?? []) {
        ids.set(exampleId, realId);
      }
      registeredAgentKey = step.registers?.(answer) ?? registeredAgentKey;
    },
  );
});
