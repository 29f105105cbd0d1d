import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createInboxClient, type InboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

/** The address the guide's swaks example writes to: a local server's default SMTP port. */
const GUIDE_SMTP_ADDRESS = "127.0.0.1:2525";

describe("the real e-mail guide's examples, against a server with SMTP and no relay", () => {
  let server: Server;
  let inbox: InboxClient;
  /** Where the examples run: the swaks example writes its attachment there. */
  let scratch: string;

  beforeAll(async () => {
    server = await startServer({ inboxPort: 0, forumPort: 0, smtpPort: 0, database: ":memory:", logger: false });
    inbox = createInboxClient({ baseUrl: server.inbox.url, apiKey: server.inbox.apiKey, maxRetries: 0 });
    await inbox.post("/v0/inboxes", { body: { username: "support", client_id: "support-inbox-v1" } });
    scratch = await mkdtemp(join(tmpdir(), "pigeonhole-email-"));
  });

  afterAll(async () => {
    await server?.close();
    if (scratch) {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    PIGEONHOLE_INBOX_BASE_URL: server.inbox.url,
    PIGEONHOLE_INBOX_API_KEY: server.inbox.apiKey,
  });

  async function runExample(file: string): Promise<string> {
    const { stdout } = await run(process.execPath, [join(SITE_ROOT, "examples/guides", file)], {
      cwd: scratch,
      timeout: 20_000,
      env: env(),
    });
    return stdout;
  }

  it("sends mail in with the guide's swaks command, which the server answers 250 once stored", async () => {
    const smtp = server.smtp;
    expect(smtp).not.toBeNull();
    const script = await readFile(join(SITE_ROOT, "examples/guides/email-swaks.sh"), "utf8");
    expect(script).toContain(`--server ${GUIDE_SMTP_ADDRESS}`);
    // The same command, pointed at the port this test's server picked.
    const { stdout } = await run("sh", ["-c", script.replace(GUIDE_SMTP_ADDRESS, `${smtp?.host}:${smtp?.port}`)], {
      cwd: scratch,
      timeout: 20_000,
      env: env(),
    });
    // swaks prints what it sends after " -> " and the answers after "<- " ("<** " for an error).
    expect(stdout).toMatch(/^ -> RCPT TO:<support@pigeonhole\.test>\r?\n<- {2}250 /m);
    expect(stdout).toMatch(/^ -> \.\r?\n<- {2}250 /m);
    expect(stdout).not.toMatch(/^<\*\*/m);
  });

  it("reads that message through the API with the guide's read example, attachment and source included", async () => {
    const stdout = await runExample("email-read.ts");
    expect(stdout).toBe(
      [
        "grace@example.com: Order 1043",
        "Hello, my next order is attached.",
        `order-1043.csv text/csv ${"item,quantity\nenvelopes,500\n".length}`,
        "From: grace@example.com",
        "",
      ].join("\n"),
    );
    // What the example printed is what the API holds: the received copy, unread, with the file's exact bytes.
    const { messages } = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "support@pigeonhole.test" } },
    });
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message?.labels).toEqual(["received", "unread"]);
    const attachment = message?.attachments[0];
    const bytes = await inbox.get("/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}", {
      params: {
        path: {
          inbox_id: "support@pigeonhole.test",
          message_id: message?.message_id ?? "",
          attachment_id: attachment?.attachment_id ?? "",
        },
      },
      parseAs: "text",
    });
    expect(bytes).toBe("item,quantity\nenvelopes,500\n");
  });

  it("refuses mail for an address no inbox has, at RCPT TO with 550 5.1.1", async () => {
    const smtp = server.smtp;
    const script = (await readFile(join(SITE_ROOT, "examples/guides/email-swaks.sh"), "utf8"))
      .replace(GUIDE_SMTP_ADDRESS, `${smtp?.host}:${smtp?.port}`)
      .replace("--to support@pigeonhole.test", "--to nobody@pigeonhole.test");
    const refused = await run("sh", ["-c", script], { cwd: scratch, timeout: 20_000, env: env() }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? "",
    );
    expect(refused).toMatch(/^ -> RCPT TO:<nobody@pigeonhole\.test>\r?\n<\*\* 550 5\.1\.1 /m);
    expect(refused).not.toMatch(/^ -> DATA/m);
  });

  it("sends out with the guide's send example: no relay, so the outside recipient is captured", async () => {
    expect(await runExample("email-send.ts")).toBe("grace@example.com captured\n");
  });
});
