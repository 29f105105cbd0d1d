import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  MessageBouncedEvent,
  MessageComplainedEvent,
  MessageDelayedEvent,
  MessageDeliveredEvent,
} from "@pigeonhole/inbox-types";
import { createTestDatabase } from "@pigeonhole/postgres-testing/vitest";
import { afterAll, describe, expect, it } from "vitest";
import { ON_FREE_PORTS, startCli, TEST_KEYS } from "../../../test/support/cli-process.ts";
import { testBackend } from "../../../test/support/test-database.ts";
import { expectData, inboxClient } from "../../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import { DEFAULT_TEST_CONTROL_KEY } from "../../options.ts";
import { SIMULATOR_DOMAIN } from "./simulated-outcome.ts";

// kill -9 of the server (the CLI, test control on) with simulated recipients waiting, then a restart on the same
// database: every recipient gets its documented outcome, each event once.

type OutcomeEvent = MessageDeliveredEvent | MessageDelayedEvent | MessageBouncedEvent | MessageComplainedEvent;

const RETRY_MS = 1_500;
const SENDS = 8;
const dir = mkdtempSync(join(tmpdir(), "pigeonhole-simulated-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts the CLI on `database` with the development keys (so test control is on) and short claims: a claim the
 * killed process held runs out within the test, for the restart to take over on PostgreSQL. The relay is there only
 * for its claim option; no magic address ever reaches it.
 */
async function startProcess(database: string, relayPort: number) {
  const cli = await startCli([
    "--database",
    database,
    "--dev-keys",
    ...ON_FREE_PORTS,
    "--smtp-relay",
    `smtp://127.0.0.1:${relayPort}`,
    "--smtp-relay-claim-ms",
    "2000",
    "--smtp-retry-delays",
    String(RETRY_MS),
    "--webhook-claim-ms",
    "4000",
    "--allow-private-webhooks",
    "--quiet",
  ]);
  const clock = await fetch(`${cli.inboxUrl}/_test/clock`, {
    headers: { authorization: `Bearer ${DEFAULT_TEST_CONTROL_KEY}` },
  });
  expect(clock.status).toBe(200);
  return cli;
}

const magic = (local: string) => `${local}@${SIMULATOR_DOMAIN}`;
const RECIPIENTS = [magic("delay"), magic("complaint"), magic("bounce")];
const EXPECTED = {
  [magic("delay")]: ["message.delayed", "message.delivered"],
  [magic("complaint")]: ["message.complained", "message.delivered"],
  [magic("bounce")]: ["message.bounced"],
};

function subjectOf(event: OutcomeEvent): { message_id: string; recipients: string[] } {
  switch (event.event_type) {
    case "message.delivered":
      return { message_id: event.delivery.message_id, recipients: event.delivery.recipients };
    case "message.delayed":
      return { message_id: event.delay.message_id, recipients: event.delay.recipients.map((r) => r.address) };
    case "message.bounced":
      return { message_id: event.bounce.message_id, recipients: event.bounce.recipients.map((r) => r.address) };
    case "message.complained":
      return { message_id: event.complaint.message_id, recipients: event.complaint.recipients };
  }
}

describe("simulated outcomes across a crash", () => {
  it("gives every waiting recipient its outcome after kill -9 and a restart, each event once", async () => {
    const database = testBackend() === "postgres" ? await createTestDatabase() : join(dir, "server.db");
    const receiver = await startWebhookReceiver();
    try {
      const relayPort = await closedPort();
      const first = await startProcess(database, relayPort);
      const inbox = inboxClient(first.inboxUrl, TEST_KEYS.inbox);
      const sender = expectData(await inbox.POST("/v0/inboxes", { body: { username: "crash-simulated" } })).inbox_id;
      expectData(await inbox.POST("/v0/webhooks", { body: { url: receiver.url } }));
      const sent: string[] = [];
      for (let i = 0; i < SENDS; i++) {
        const result = expectData(
          await inbox.POST("/v0/inboxes/{inbox_id}/messages", {
            params: { path: { inbox_id: sender } },
            body: { to: RECIPIENTS, subject: `Crash ${i}`, text: "Once." },
          }),
        );
        sent.push(result.message_id);
      }
      // The delays wait for their retry: the crash leaves recipients to finish.
      const last = expectData(
        await inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
          params: { path: { inbox_id: sender, message_id: sent.at(-1) ?? "" } },
        }),
      );
      expect(last.deliveries.find((d) => d.address === magic("delay"))?.status).toMatch(/^(queued|delayed)$/);
      first.child.kill("SIGKILL");
      await first.exited;

      const second = await startProcess(database, relayPort);
      try {
        const again = inboxClient(second.inboxUrl, TEST_KEYS.inbox);
        const statuses = async () =>
          Promise.all(
            sent.map(async (messageId) =>
              expectData(
                await again.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
                  params: { path: { inbox_id: sender, message_id: messageId } },
                }),
              )
                .deliveries.map((d) => `${d.address}=${d.status}`)
                .join(","),
            ),
          );
        const final = RECIPIENTS.map(
          (address) => `${address}=${address.startsWith("bounce") ? "bounced" : "delivered"}`,
        )
          .sort()
          .join(",");
        const deadline = Date.now() + 30_000;
        let seen = await statuses();
        while (seen.some((s) => s.split(",").sort().join(",") !== final) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          seen = await statuses();
        }
        expect(seen.map((s) => s.split(",").sort().join(","))).toEqual(sent.map(() => final));

        // Every outcome event reaches the webhook (at least once: deduplicated by id), and none twice over.
        const expectedEvents = SENDS * Object.values(EXPECTED).flat().length;
        const distinct = async () => {
          const byId = new Map<string, OutcomeEvent>();
          for (const delivery of receiver.deliveries) {
            const event = JSON.parse(delivery.body) as OutcomeEvent | { event_type: string; event_id: string };
            if (event.event_type !== "message.sent") {
              byId.set(event.event_id, event as OutcomeEvent);
            }
          }
          return [...byId.values()];
        };
        while ((await distinct()).length < expectedEvents && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
        const perRecipient = new Map<string, string[]>();
        for (const event of await distinct()) {
          const { message_id, recipients } = subjectOf(event);
          for (const address of recipients) {
            const key = `${message_id} ${address}`;
            perRecipient.set(key, [...(perRecipient.get(key) ?? []), event.event_type].sort());
          }
        }
        for (const messageId of sent) {
          for (const [address, types] of Object.entries(EXPECTED)) {
            expect(perRecipient.get(`${messageId} ${address}`), `${messageId} ${address}`).toEqual(types);
          }
        }
        expect(perRecipient.size).toBe(SENDS * RECIPIENTS.length);
      } finally {
        second.child.kill("SIGTERM");
        await second.exited;
      }
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
