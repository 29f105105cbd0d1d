import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawSmtpClient } from "../../../test/support/raw-smtp-client.ts";
import type { TestServer } from "../../../test/support/test-server.ts";
import { startTestServer } from "../../../test/support/test-server.ts";

// Raw TCP clients, so the test decides exactly how many connections are open and when each one ends.

const REPLY_TIMEOUT_MS = 5_000;

let t: TestServer;
let port: number;
const open: RawSmtpClient[] = [];
beforeAll(async () => {
  t = await startTestServer({ smtpPort: 0, smtpConnectionsPerAddress: 2 });
  port = t.server.smtp?.port ?? 0;
});
afterAll(async () => {
  for (const client of open) {
    client.socket.destroy();
  }
  await t.server.close();
});

async function openClient(): Promise<RawSmtpClient> {
  const client = await RawSmtpClient.open(port);
  open.push(client);
  return client;
}

describe("SMTP connections per client address", () => {
  it("refuses a connection over the limit with 421 and closes it, and serves a new one once another has ended", async () => {
    const first = await openClient();
    const second = await openClient();
    expect(await first.line(0)).toMatch(/^220 /);
    expect(await second.line(0)).toMatch(/^220 /);

    const third = await openClient();
    expect(await third.line(0)).toMatch(/^421 4\.7\.0 /);
    await third.closed;
    expect(third.lines).toHaveLength(1);

    // The connections within the limit are unaffected by the refusal.
    expect(await first.command("EHLO client.example")).toMatch(/^250 /);
    expect(await second.command("NOOP")).toMatch(/^250 /);

    expect(await first.command("QUIT")).toMatch(/^221 /);
    await first.closed;

    // The server counts the ended connection out when its side of the socket closes, which may come just after the
    // client saw it close: a newcomer is served at the latest within a short, bounded wait.
    const deadline = Date.now() + REPLY_TIMEOUT_MS;
    let greeting = "";
    let refusals = 0;
    while (Date.now() < deadline) {
      const next = await openClient();
      greeting = await next.line(0);
      if (greeting.startsWith("220 ")) {
        expect(await next.command("EHLO client.example")).toMatch(/^250 /);
        break;
      }
      refusals++;
      await next.closed;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(greeting).toMatch(/^220 /);
    expect(refusals).toBeLessThan(5);

    // Two are open again (second and the newcomer), so the limit holds as before.
    const over = await openClient();
    expect(await over.line(0)).toMatch(/^421 /);
    await over.closed;
  });
});
