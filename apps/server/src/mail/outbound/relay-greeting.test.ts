import { randomBytes } from "node:crypto";
import type { DeliveredMessage, Relay } from "@pigeonhole/mail-testing";
import { startRelay } from "@pigeonhole/mail-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";
import { InvalidOptionError, resolveOptions, type ServerOptions } from "../../options.ts";
import { machineHeloName } from "./helo-name.ts";

// The name the server greets a real Postfix relay with (EHLO), as Postfix records it in the Received header it adds.

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(() => relay.stop());

const unique = () => randomBytes(4).toString("hex");

/** What the relay delivered to `address`, once it has (bounded: 15 s). */
async function deliveredTo(address: string): Promise<DeliveredMessage> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = (await relay.delivered()).find((message) => message.recipient === address);
    if (found !== undefined) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`The relay delivered nothing to ${address}. Its log ends:\n${(await relay.log()).slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends one message to an outside address through the relay; answers the name its EHLO gave, as Postfix logged it. */
async function greetingOfServer(options: Partial<ServerOptions>): Promise<string> {
  const t = await startTestServer({ smtpRelay: relay.url, ...options });
  try {
    const inboxId = expectData(
      await t.inbox.POST("/v0/inboxes", { body: { username: `sender-${unique()}` } }),
    ).inbox_id;
    const to = `greeted-${unique()}@example.org`;
    expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inboxId } },
        body: { to, subject: "Greeting", text: "Hello" },
      }),
    );
    const { raw } = await deliveredTo(to);
    // Postfix's own Received line: "from <EHLO name> (<client name> [<client address>])".
    const received = /^Received: from (\S+) \([^)]*\[127\.0\.0\.1\]\)/m.exec(raw.toString("latin1"));
    if (received?.[1] === undefined) {
      throw new Error(`No Received line of the relay in:\n${raw.toString("latin1").slice(0, 2000)}`);
    }
    return received[1];
  } finally {
    await t.server.close();
  }
}

describe("the relay's greeting", () => {
  it("names the host --smtp-helo-name gives", async () => {
    expect(await greetingOfServer({ smtpHeloName: "out.example.com" })).toBe("out.example.com");
  });

  it("names the first hosted domain by default", async () => {
    expect(await greetingOfServer({ domains: ["Mail.Example.com", "example.org"] })).toBe("mail.example.com");
  });

  it("names the machine when no domain is given", async () => {
    const name = await greetingOfServer({});
    expect(name).toBe(machineHeloName());
  });

  it("is refused unless a host name or an address literal, and without a relay", () => {
    const relayed = { smtpRelay: relay.url, logger: false } as const;
    expect(resolveOptions({ ...relayed, smtpHeloName: "[192.0.2.1]" }, {}).relay?.heloName).toBe("[192.0.2.1]");
    for (const smtpHeloName of ["out.example.com\r\nRSET", "out_example.com", ""]) {
      expect(() => resolveOptions({ ...relayed, smtpHeloName }, {}), smtpHeloName).toThrow(InvalidOptionError);
    }
    expect(() => resolveOptions({ smtpHeloName: "out.example.com", logger: false }, {})).toThrow(
      "smtpHeloName is the server's name in its greeting to the relay: it needs smtpRelay.",
    );
  });
});
