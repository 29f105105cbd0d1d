import { register } from "prom-client";
import { describe, expect, it } from "vitest";
import { MetricsScrape } from "../../test/support/metrics-scrape.ts";
import type { MetricsSources, QueueDepth } from "./server-metrics.ts";
import { ServerMetrics } from "./server-metrics.ts";

const depth = (waiting: number, due: number): Promise<QueueDepth> => Promise.resolve({ waiting, due });

function sources(overrides: Partial<MetricsSources> = {}): MetricsSources {
  return {
    webhookDeliveries: () => depth(0, 0),
    outboundMail: () => depth(0, 0),
    websocketConnections: () => 0,
    ...overrides,
  };
}

const scrapeOf = async (metrics: ServerMetrics) => new MetricsScrape(await metrics.render());

describe("a server's metrics", () => {
  it("are kept on a registry of their own: two servers in one process count apart, the global registry stays empty", async () => {
    const first = new ServerMetrics({ sources: sources() });
    const second = new ServerMetrics({ sources: sources() });
    first.requests.answered("inbox", "listInboxes", 200, 0.01);
    first.instruments.smtp.sessionOpened();
    const labels = { service: "inbox", operation: "listInboxes", status: "200" };
    expect((await scrapeOf(first)).value("pigeonhole_http_requests_total", labels)).toBe(1);
    expect((await scrapeOf(second)).value("pigeonhole_http_requests_total", labels)).toBe(0);
    expect((await scrapeOf(first)).value("pigeonhole_smtp_sessions")).toBe(1);
    expect((await scrapeOf(second)).value("pigeonhole_smtp_sessions")).toBe(0);
    expect((await register.metrics()).trim()).toBe("");
  });

  it("show every outcome of deliveries and mail from the start, at 0, so that rates have a series", async () => {
    const scrape = await scrapeOf(new ServerMetrics({ sources: sources() }));
    expect(scrape.series("pigeonhole_webhook_deliveries_total").map((labels) => labels.outcome)).toEqual([
      "delivered",
      "retrying",
      "failed",
      "cancelled",
    ]);
    expect(scrape.series("pigeonhole_outbound_mail_attempts_total").map((labels) => labels.outcome)).toEqual([
      "delivered",
      "delayed",
      "bounced",
    ]);
  });

  it("read each queue once for a flood of scrapes, both gauges of a queue from one query", async () => {
    let webhookReads = 0;
    let mailReads = 0;
    const metrics = new ServerMetrics({
      sources: sources({
        webhookDeliveries: () => {
          webhookReads++;
          return depth(5, 2);
        },
        outboundMail: () => {
          mailReads++;
          return depth(3, 1);
        },
        websocketConnections: () => 4,
      }),
    });
    const scrapes = await Promise.all(Array.from({ length: 100 }, () => scrapeOf(metrics)));
    expect({ webhookReads, mailReads }).toEqual({ webhookReads: 1, mailReads: 1 });
    for (const scrape of scrapes) {
      expect(scrape.value("pigeonhole_webhook_deliveries_pending")).toBe(5);
      expect(scrape.value("pigeonhole_webhook_deliveries_due")).toBe(2);
      expect(scrape.value("pigeonhole_outbound_mail_queued")).toBe(3);
      expect(scrape.value("pigeonhole_outbound_mail_due")).toBe(1);
      expect(scrape.value("pigeonhole_websocket_connections")).toBe(4);
    }
  });

  it("answer NaN for a queue whose reading fails or is slow, count it, and still answer the rest", async () => {
    const metrics = new ServerMetrics({
      sources: sources({
        webhookDeliveries: () => Promise.reject(new Error("connection refused")),
        outboundMail: () => new Promise<QueueDepth>(() => {}),
        websocketConnections: () => 2,
      }),
      readingAnswerWithinMs: 20,
    });
    await metrics.render();
    const scrape = await scrapeOf(metrics);
    expect(scrape.value("pigeonhole_webhook_deliveries_pending")).toBeNaN();
    expect(scrape.value("pigeonhole_outbound_mail_queued")).toBeNaN();
    expect(scrape.value("pigeonhole_websocket_connections")).toBe(2);
    expect(scrape.value("pigeonhole_metrics_reading_failures_total", { reading: "webhook_deliveries" })).toBe(1);
    expect(scrape.value("pigeonhole_metrics_reading_failures_total", { reading: "outbound_mail" })).toBe(1);
  });

  it("report the database pool when it has one", async () => {
    const withPool = await scrapeOf(
      new ServerMetrics({ sources: sources({ databasePool: () => ({ total: 10, idle: 7, waiting: 2 }) }) }),
    );
    expect(withPool.value("pigeonhole_database_pool_connections", { state: "idle" })).toBe(7);
    expect(withPool.value("pigeonhole_database_pool_connections", { state: "in_use" })).toBe(3);
    expect(withPool.value("pigeonhole_database_pool_waiting")).toBe(2);
    const without = await scrapeOf(new ServerMetrics({ sources: sources() }));
    expect(without.series("pigeonhole_database_pool_connections")).toEqual([]);
  });
});
