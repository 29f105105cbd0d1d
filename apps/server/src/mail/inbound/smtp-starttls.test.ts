import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { swaks } from "@pigeonhole/mail-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";

// STARTTLS with a throw-away self-signed certificate made by Debian's openssl, spoken to by Debian's swaks.

const run = promisify(execFile);
const CERT_NAME = "smtp-starttls.pigeonhole.test";

let workDir: string;
let tls: { cert: Buffer; key: Buffer };
beforeAll(async () => {
  await run("openssl", ["version"]).catch((error: unknown) => {
    throw new Error(`These tests need Debian's openssl on PATH (apt-get install openssl): ${String(error)}`);
  });
  workDir = await mkdtemp(join(tmpdir(), "smtp-starttls-"));
  const certFile = join(workDir, "cert.pem");
  const keyFile = join(workDir, "key.pem");
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "1",
    "-subj",
    `/CN=${CERT_NAME}`,
    "-keyout",
    keyFile,
    "-out",
    certFile,
  ]);
  tls = { cert: await readFile(certFile), key: await readFile(keyFile) };
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function withServer(options: { tls: boolean }, body: (t: TestServer, smtp: string) => Promise<void>) {
  const t = await startTestServer({ smtpPort: 0, ...(options.tls ? { smtpTls: tls } : {}) });
  try {
    await body(t, `127.0.0.1:${t.server.smtp?.port}`);
  } finally {
    await t.server.close();
  }
}

async function subjectsIn(t: TestServer, inboxId: string): Promise<string[]> {
  const list = expectData(
    await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inboxId } } }),
  );
  return list.messages.map((message) => message.subject ?? "");
}

describe("STARTTLS on the SMTP port", () => {
  it("is offered with a certificate, negotiated by swaks --tls, and the message is stored", async () => {
    await withServer({ tls: true }, async (t, smtp) => {
      const inbox = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "tls-in" } })).inbox_id;
      const sent = await swaks([
        "--server",
        smtp,
        "--timeout",
        "20",
        "--tls",
        "--from",
        "ada@example.com",
        "--to",
        inbox,
        "--header",
        "Subject: Over TLS",
        "--body",
        "Sent after STARTTLS.",
      ]);
      expect(sent.exitCode, sent.output).toBe(0);
      expect(sent.output).toMatch(/<- {1,2}250-STARTTLS/);
      expect(sent.output).toMatch(/<- {1,2}220 /);
      expect(sent.output).toMatch(/=== TLS started with cipher \S+/);
      // swaks names the certificate it was shown: ours, so the session really ran over this server's TLS.
      expect(sent.output).toContain(CERT_NAME);
      // The message itself went through the encrypted session (swaks prints it with ~> instead of ->).
      expect(sent.output).toMatch(/~> {1,2}MAIL FROM:<ada@example\.com>/);
      expect(sent.output).toMatch(/<~ {1,2}250 2\.0\.0 Ok: stored/);
      expect(await subjectsIn(t, inbox)).toEqual(["Over TLS"]);
    });
  });

  it("is not offered without a certificate, and swaks --tls gives up before sending", async () => {
    await withServer({ tls: false }, async (t, smtp) => {
      const inbox = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "plain-only" } })).inbox_id;
      const refused = await swaks([
        "--server",
        smtp,
        "--timeout",
        "20",
        "--tls",
        "--from",
        "ada@example.com",
        "--to",
        inbox,
        "--header",
        "Subject: Should not arrive",
        "--body",
        "x",
      ]);
      expect(refused.exitCode, refused.output).not.toBe(0);
      expect(refused.output).toMatch(/<- {1,2}250[ -]/);
      expect(refused.output).not.toMatch(/<- {1,2}250[ -]STARTTLS/);
      expect(refused.output).toContain("Host did not advertise STARTTLS");
      expect(refused.output).not.toMatch(/TLS started/);
      expect(await subjectsIn(t, inbox)).toEqual([]);
    });
  });
});
