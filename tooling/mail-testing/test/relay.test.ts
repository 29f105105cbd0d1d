import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { isRunning } from "@pigeonhole/test-processes";
import { afterEach, describe, expect, it } from "vitest";
import { type Relay, startRelay, swaks } from "../src/index.ts";

/** Relays a test started, stopped after it whatever happened. */
const started: Relay[] = [];
async function relay(options?: Parameters<typeof startRelay>[0]): Promise<Relay> {
  const each = await startRelay(options);
  started.push(each);
  return each;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((each) => each.stop()));
});

function send(server: Relay, to: string, extra: readonly string[] = []) {
  return swaks([
    "--server",
    `127.0.0.1:${server.port}`,
    "--from",
    "sender@example.org",
    "--to",
    to,
    "--header",
    "Subject: Relay check",
    "--body",
    "Hello through Postfix",
    ...extra,
  ]);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("startRelay", () => {
  it("accepts a message for any domain, keeps it with its envelope, and stop leaves nothing", async () => {
    // How fast it starts depends on the machine: a test states what it does, not how quickly.
    const server = await relay();
    expect(server.url).toBe(`smtp://127.0.0.1:${server.port}`);

    const result = await send(server, "Someone@Elsewhere.example");
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toMatch(/220 relay\.localhost ESMTP Postfix/);
    expect(result.output).toMatch(/250 2\.0\.0 Ok: queued as/);

    const [message, ...rest] = await server.waitForDelivered(1);
    expect(rest).toEqual([]);
    expect(message?.recipient).toBe("Someone@Elsewhere.example");
    expect(message?.sender).toBe("sender@example.org");
    const raw = message?.raw.toString("utf8") ?? "";
    expect(raw).toMatch(/^Return-Path: <sender@example\.org>\r?\n/);
    expect(raw).toMatch(/\r?\nSubject: Relay check\r?\n/);
    expect(raw).toMatch(/\r?\n\r?\nHello through Postfix/);
    expect(await server.log()).toMatch(/to=<Someone@Elsewhere\.example>, relay=virtual.*status=sent/);

    const master = Number((await readFile(join(server.dir, "queue", "pid", "master.pid"), "utf8")).trim());
    expect(isRunning(master)).toBe(true);
    await server.stop();
    expect(isRunning(master)).toBe(false);
    expect(existsSync(server.dir)).toBe(false);
    expect(await accepts(server.port)).toBe(false);
    await server.stop(); // a second stop is harmless
  });

  it("answers RCPT TO for an address as told until cleared, and only for that address", async () => {
    const server = await relay();
    await server.setRecipientReply("busy@example.net", "451 4.7.1 Try again later");
    const deferred = await send(server, "busy@example.net");
    expect(deferred.exitCode).not.toBe(0);
    expect(deferred.output).toMatch(/451 4\.7\.1 <busy@example\.net>: Recipient address rejected: Try again later/);

    // In one transaction: the other recipient gets the message.
    const mixed = await send(server, "busy@example.net,free@example.net");
    expect(mixed.output).toMatch(/250 2\.0\.0 Ok: queued as/);
    expect((await server.waitForDelivered(1)).map((each) => each.recipient)).toEqual(["free@example.net"]);

    // Cleared: the very next connection is accepted.
    await server.setRecipientReply("busy@example.net", null);
    const accepted = await send(server, "BUSY@example.net");
    expect(accepted.exitCode, accepted.output).toBe(0);

    await server.setRecipientReply("gone@example.net", "550 5.1.1 User unknown");
    const refused = await send(server, "gone@example.net");
    expect(refused.exitCode).not.toBe(0);
    expect(refused.output).toMatch(/550 5\.1\.1 <gone@example\.net>: Recipient address rejected: User unknown/);

    const delivered = await server.waitForDelivered(2);
    expect(delivered.map((each) => each.recipient)).toEqual(["free@example.net", "BUSY@example.net"]);
  });

  it("switches a recipient's reply back and forth, each time from the next connection on", async () => {
    const server = await relay();
    for (let round = 0; round < 6; round++) {
      const refused = round % 2 === 0;
      await server.setRecipientReply("flip@example.net", refused ? "450 4.2.0 Mailbox busy" : null);
      const result = await send(server, "flip@example.net");
      expect(result.output.includes("450 4.2.0"), `round ${round}`).toBe(refused);
    }
    expect(await server.waitForDelivered(3)).toHaveLength(3);
  });

  it("refuses recipient replies and addresses it cannot express", async () => {
    const server = await relay();
    await expect(server.setRecipientReply("a@example.net", "250 fine")).rejects.toThrow(/4xx or 5xx/);
    await expect(server.setRecipientReply("a@example.net", "451 two\nlines")).rejects.toThrow(/4xx or 5xx/);
    await expect(server.setRecipientReply("a b@example.net", "451 busy")).rejects.toThrow(/Not an address/);
    await expect(server.routeDomain("example.net", 0)).rejects.toThrow(/Cannot route/);
  });

  it("hands mail for a routed domain to the SMTP server on that port, and keeps the rest", async () => {
    const front = await relay();
    const back = await relay();
    await front.routeDomain("pigeonhole.test", back.port);

    expect((await send(front, "inbox@pigeonhole.test")).exitCode).toBe(0);
    expect((await send(front, "kept@example.net")).exitCode).toBe(0);
    const [routed] = await back.waitForDelivered(1);
    expect(routed?.recipient).toBe("inbox@pigeonhole.test");
    // The back relay's Received header names the front relay's smtp client.
    expect(routed?.raw.toString("utf8")).toMatch(/by relay\.localhost \(Postfix\)[\s\S]*by relay\.localhost/);
    expect((await front.waitForDelivered(1)).map((each) => each.recipient)).toEqual(["kept@example.net"]);
    expect(await front.log()).toMatch(
      new RegExp(`to=<inbox@pigeonhole\\.test>, relay=127\\.0\\.0\\.1\\[127\\.0\\.0\\.1\\]:${back.port}.*status=sent`),
    );

    // A permanent refusal there comes back to the sender as a bounce.
    await back.setRecipientReply("unknown@pigeonhole.test", "550 5.1.1 User unknown");
    expect((await send(front, "unknown@pigeonhole.test")).exitCode).toBe(0);
    const bounce = (await front.waitForDelivered(2))[1];
    expect(bounce?.recipient).toBe("sender@example.org");
    expect(bounce?.sender).toBe("");
    expect(bounce?.raw.toString("utf8")).toMatch(/550 5\.1\.1 <unknown@pigeonhole\.test>/);
  });

  it("with a user and password, relays only for clients that log in", async () => {
    const server = await relay({ user: "tester", password: "p@ss word" });
    expect(server.url).toBe(`smtp://tester:p%40ss%20word@127.0.0.1:${server.port}`);

    const anonymous = await send(server, "a@example.net");
    expect(anonymous.exitCode).not.toBe(0);
    expect(anonymous.output).toMatch(/554 5\.7\.1 <a@example\.net>: Recipient address rejected: Access denied/);

    const wrong = await send(server, "a@example.net", [
      "--auth",
      "LOGIN",
      "--auth-user",
      "tester",
      "--auth-password",
      "no",
    ]);
    expect(wrong.exitCode).not.toBe(0);
    expect(wrong.output).toMatch(/535 5\.7\.8/);

    for (const mechanism of ["PLAIN", "LOGIN"]) {
      const result = await send(server, "a@example.net", [
        "--auth",
        mechanism,
        "--auth-user",
        "tester",
        "--auth-password",
        "p@ss word",
      ]);
      expect(result.exitCode, result.output).toBe(0);
      expect(result.output).toMatch(/235 2\.7\.0 Authentication successful/);
    }
    expect(await server.waitForDelivered(2)).toHaveLength(2);
  });

  it("needs both a user and a password, or neither", async () => {
    await expect(startRelay({ user: "only" })).rejects.toThrow(/both a user and a password/);
  });

  it("says what it delivered when a wait runs out", async () => {
    const server = await relay();
    await expect(server.waitForDelivered(1, 200)).rejects.toThrow(/delivered 0 of 1 messages in 200 ms/);
  });
});
