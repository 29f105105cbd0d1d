import { execFileSync } from "node:child_process";
import type { Relay } from "@pigeonhole/mail-testing";
import { startRelay, swaks } from "@pigeonhole/mail-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_POOL_SIZE } from "../../src/storage/open-storage.ts";
import { CLI_ENTRY, ON_FREE_PORTS, runCli, startCli, waitForOutput } from "../support/cli-process.ts";
import { connectStream } from "../support/event-stream-client.ts";
import type { MetricsScrape } from "../support/metrics-scrape.ts";
import { scrape, scrapeUntil } from "../support/metrics-scrape.ts";
import { testBackend } from "../support/test-database.ts";
import type { TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";

// The server with metrics on, a real Postfix relay for its outbound mail, real webhook receivers, swaks for inbound
// mail and a WebSocket client: each kind of traffic is sent a known number of times, and a scrape over HTTP must show
// every count moved by exactly that.

const HOUR_MS = 60 * 60 * 1000;

let relay: Relay;
let okReceiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let failingReceiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let t: TestServer;
let metricsUrl: string;

beforeAll(async () => {
  relay = await startRelay();
  okReceiver = await startWebhookReceiver(() => 200);
  failingReceiver = await startWebhookReceiver(() => 500);
  t = await startTestServer({
    metricsPort: 0,
    smtpPort: 0,
    smtpRelay: relay.url,
    // A failed attempt waits long: the retries stay pending (and not due) while the test looks.
    smtpRetryDelaysMs: [HOUR_MS],
    webhookRetryDelaysMs: [HOUR_MS],
  });
  metricsUrl = t.server.metrics?.url ?? "";
}, 60_000);

afterAll(async () => {
  await t?.server.close();
  await Promise.all([okReceiver?.close(), failingReceiver?.close(), relay?.stop()]);
});

/** What moved between two scrapes, for one sample. */
const moved = (before: MetricsScrape, after: MetricsScrape, name: string, labels: Record<string, string> = {}) =>
  after.value(name, labels) - before.value(name, labels);

const requests = (service: string, operation: string, status: number) => ({
  service,
  operation,
  status: String(status),
});

async function newInbox(username: string): Promise<string> {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
}

describe("metrics", () => {
  it("serve Prometheus text at /metrics on a listener of their own, on loopback", async () => {
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).not.toBe(new URL(t.server.inbox.url).port);
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain("# TYPE pigeonhole_http_requests_total counter");
    expect(text).toContain("# TYPE pigeonhole_http_request_duration_seconds histogram");
    // The process's own metrics, on this server's registry.
    expect(text).toContain("process_cpu_seconds_total");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    // Only /metrics, and only to read it; the APIs are not served here.
    expect((await fetch(new URL("/v0/inboxes", metricsUrl))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(405);
  });

  it("count the requests, webhook deliveries, outbound mail, SMTP and WebSocket traffic, by exactly what was sent", async () => {
    const receiving = await newInbox("metrics-in");
    const sending = await newInbox("metrics-out");
    for (const url of [okReceiver.url, failingReceiver.url]) {
      expectData(
        await t.inbox.POST("/v0/webhooks", {
          body: { url, event_types: ["message.received"], inbox_ids: [receiving] },
        }),
      );
    }
    const delivered = "arrives@example.org";
    const bounced = "unknown@example.org";
    const delayed = "busy@example.org";
    await relay.setRecipientReply(bounced, "550 5.1.1 User unknown");
    await relay.setRecipientReply(delayed, "451 4.7.1 Try again later");
    const before = await scrape(metricsUrl);

    // The API: 3 answered 200, 1 answered 404 (a foreign inbox), 1 answered 401 (no key), and one on the forum.
    for (let i = 0; i < 3; i++) {
      expectData(await t.inbox.GET("/v0/inboxes"));
    }
    const missing = await t.inbox.GET("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "nobody@x.test" } } });
    expect(missing.response.status).toBe(404);
    expect((await fetch(`${t.server.inbox.url}/v0/inboxes`)).status).toBe(401);
    expectData(await t.forum.GET("/api/v1/posts"));
    // One message sent to three outside recipients: the relay accepts one, refuses one for good, and one for now.
    expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sending } },
        body: { to: [delivered, bounced, delayed], subject: "Counted", text: "Hello." },
      }),
    );
    // SMTP: one session stores a message for the receiving inbox, another is refused its only recipient.
    const server = `${t.server.smtp?.host}:${t.server.smtp?.port}`;
    const stored = await swaks(["--server", server, "--from", "ada@example.com", "--to", receiving, "--body", "hi"]);
    expect(stored.exitCode).toBe(0);
    const refused = await swaks(["--server", server, "--from", "ada@example.com", "--to", "nobody@pigeonhole.test"]);
    expect(refused.exitCode).not.toBe(0);
    // One WebSocket connection, open while scraped.
    const stream = await connectStream(t.server.inbox.url, t.server.inbox.apiKey);

    // The message received raised one delivery per webhook: one delivered, one failed and due again in an hour; the
    // relay answered each recipient once.
    await Promise.all([okReceiver.waitFor(1), failingReceiver.waitFor(1)]);
    const after = await scrapeUntil(
      metricsUrl,
      (current) =>
        moved(before, current, "pigeonhole_webhook_deliveries_total", { outcome: "retrying" }) === 1 &&
        moved(before, current, "pigeonhole_webhook_deliveries_total", { outcome: "delivered" }) === 1 &&
        ["delivered", "bounced", "delayed"].every(
          (outcome) => moved(before, current, "pigeonhole_outbound_mail_attempts_total", { outcome }) === 1,
        ) &&
        current.value("pigeonhole_smtp_sessions") === 0 &&
        current.value("pigeonhole_websocket_connections") === 1,
    );
    stream.ws.close();

    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "listInboxes", 200))).toBe(3);
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "getInbox", 404))).toBe(1);
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "listInboxes", 401))).toBe(1);
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "sendMessage", 200))).toBe(1);
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("forum", "listPosts", 200))).toBe(1);
    // The WebSocket upgrade goes through the app like any request, named by its route.
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "/v0/ws", 200))).toBe(1);
    // Durations by operation, whatever the status: the three answered 200 and the one answered 401.
    const listDurations = { service: "inbox", operation: "listInboxes" };
    expect(moved(before, after, "pigeonhole_http_request_duration_seconds_count", listDurations)).toBe(4);
    const answered = (scrape: MetricsScrape) =>
      scrape
        .series("pigeonhole_http_requests_total")
        .reduce((sum, labels) => sum + scrape.value("pigeonhole_http_requests_total", labels), 0);
    // Nothing else was counted: the 7 API requests and the upgrade.
    expect(answered(after) - answered(before)).toBe(8);

    expect(moved(before, after, "pigeonhole_webhook_deliveries_total", { outcome: "failed" })).toBe(0);
    expect(moved(before, after, "pigeonhole_queue_claimed_rows_total", { queue: "webhook_deliveries" })).toBe(2);
    expect(moved(before, after, "pigeonhole_queue_claimed_rows_total", { queue: "outbound_mail" })).toBe(3);
    // Waiting now: the delivery that failed and the recipient delayed, neither due for an hour. A queue's reading is
    // reused for a second, so the scrapes above may still show an earlier one.
    const queues = await scrapeUntil(
      metricsUrl,
      (current) =>
        current.value("pigeonhole_webhook_deliveries_pending") === 1 &&
        current.value("pigeonhole_outbound_mail_queued") === 1,
    );
    expect(queues.value("pigeonhole_webhook_deliveries_due")).toBe(0);
    expect(queues.value("pigeonhole_outbound_mail_due")).toBe(0);

    expect(moved(before, after, "pigeonhole_smtp_sessions_total")).toBe(2);
    expect(moved(before, after, "pigeonhole_smtp_messages_accepted_total")).toBe(1);
    expect(moved(before, after, "pigeonhole_smtp_recipients_refused_total", { reason: "unknown_recipient" })).toBe(1);
    expect(after.series("pigeonhole_smtp_messages_refused_total")).toEqual([]);
    expect(after.value("pigeonhole_metrics_reading_failures_total", { reading: "webhook_deliveries" })).toBe(0);
    expect(after.value("pigeonhole_metrics_reading_failures_total", { reading: "outbound_mail" })).toBe(0);

    // Closed, the connection leaves the gauge.
    await stream.closed;
    await scrapeUntil(metricsUrl, (current) => current.value("pigeonhole_websocket_connections") === 0);
  });

  it("report the database pool's use on PostgreSQL, and no pool on SQLite, which has none", async () => {
    const now = await scrape(metricsUrl);
    if (testBackend() === "sqlite") {
      expect(now.series("pigeonhole_database_pool_connections")).toEqual([]);
      return;
    }
    const inUse = now.value("pigeonhole_database_pool_connections", { state: "in_use" });
    const idle = now.value("pigeonhole_database_pool_connections", { state: "idle" });
    // The traffic of the tests before opened connections; none is busy between requests.
    expect(idle).toBeGreaterThan(0);
    expect(inUse + idle).toBeLessThanOrEqual(DEFAULT_POOL_SIZE);
    expect(now.value("pigeonhole_database_pool_waiting")).toBe(0);
  });

  it("name requests by the app's routes, never by the path sent: a flood of paths adds no series", async () => {
    // Warm every label a request below can have, then flood with paths no route has, with and without a key.
    const key = { Authorization: `Bearer ${t.server.inbox.apiKey}` };
    const send = (path: string, headers: Record<string, string> = {}, method = "GET") =>
      fetch(`${t.server.inbox.url}${path}`, { method, headers }).then((response) => response.status);
    await send("/warm", key);
    await send("/warm");
    await send("/v0/inboxes", key, "PATCH");
    await send("/v0/inboxes/warm%40x.test/messages/m/attachments/a", key);
    const before = await scrape(metricsUrl);
    const statuses = new Set<number>();
    for (let i = 0; i < 200; i++) {
      statuses.add(await send(`/flood/${i}/${"a".repeat(i)}?q=${i}`, i % 2 === 0 ? key : {}));
      statuses.add(await send(`/v0/inboxes/flood-${i}%40x.test/messages/m${i}/attachments/a${i}`, key));
    }
    statuses.add(await send("/v0/inboxes", key, "PATCH"));
    const after = await scrape(metricsUrl);

    expect([...statuses].sort()).toEqual([401, 404, 405]);
    expect(after.series("pigeonhole_http_requests_total")).toEqual(before.series("pigeonhole_http_requests_total"));
    expect(after.series("pigeonhole_http_request_duration_seconds_count")).toEqual(
      before.series("pigeonhole_http_request_duration_seconds_count"),
    );
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "not_found", 404))).toBe(100);
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "not_found", 401))).toBe(100);
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "getAttachment", 404))).toBe(200);
    expect(moved(before, after, "pigeonhole_http_requests_total", requests("inbox", "method_not_allowed", 405))).toBe(
      1,
    );
    const operations = new Set(after.series("pigeonhole_http_requests_total").map((labels) => labels.operation));
    expect(
      [...operations].filter((operation) => operation?.includes("flood") || operation?.startsWith("/v0/in")),
    ).toEqual([]);
  });
});

describe("without --metrics-port", () => {
  it("nothing listens for metrics: the server's only ports are the APIs' and SMTP's", async () => {
    const cli = await runCli(["--memory", ...ON_FREE_PORTS]);
    try {
      await waitForOutput(cli, "stdout", /Press Ctrl\+C/);
      expect(cli.stdout()).not.toContain("Metrics");
      const ports = listeningPorts(cli.child.pid ?? 0);
      expect(ports).toHaveLength(3);
      expect(ports).toEqual(
        expect.arrayContaining([Number(new URL(cli.inboxUrl).port), Number(new URL(cli.forumUrl).port)]),
      );
    } finally {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
  });

  it("with it (here from PIGEONHOLE_METRICS_PORT), the CLI listens on one port more, on loopback, named in its banner", async () => {
    const cli = await startCli(["--memory", ...ON_FREE_PORTS], { env: { PIGEONHOLE_METRICS_PORT: "0" } });
    try {
      const url = (await waitForOutput(cli, "stdout", /Metrics +(http:\/\/\S+)/))[1] ?? "";
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(listeningPorts(cli.child.pid ?? 0)).toHaveLength(4);
      expect((await scrape(url)).has("pigeonhole_smtp_sessions")).toBe(true);
    } finally {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
  });
});

describe("--help", () => {
  it("lists the metrics options with their variables and defaults, from the option table", () => {
    const help = execFileSync(process.execPath, [CLI_ENTRY, "--help"], { encoding: "utf8" });
    expect(help).toMatch(/--metrics-port <port>[\s\S]*PIGEONHOLE_METRICS_PORT[\s\S]*off/);
    expect(help).toMatch(/--metrics-host <address>[\s\S]*PIGEONHOLE_METRICS_HOST[\s\S]*127\.0\.0\.1/);
  });
});

/** The TCP ports process `pid` listens on, as `ss` lists them. */
function listeningPorts(pid: number): number[] {
  const lines = execFileSync("ss", ["-Hltnp"], { encoding: "utf8" }).split("\n");
  return lines
    .filter((line) => line.includes(`pid=${pid},`))
    .map((line) => Number(/:(\d+)\s/.exec(line)?.[1]))
    .sort((a, b) => a - b);
}
