import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { BoundedReading } from "./bounded-reading.ts";
import type {
  Instruments,
  OutboundMailOutcome,
  RequestMeter,
  SmtpMeter,
  WebhookDeliveryOutcome,
} from "./instruments.ts";

/** Rows of a work table waiting to be worked on, and how many of those are due now. */
export interface QueueDepth {
  waiting: number;
  due: number;
}

/** A connection pool's use at this moment. */
export interface PoolUse {
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

/** What a scrape reads besides the counters: the queues in the database, and the server's own state. */
export interface MetricsSources {
  /** One aggregate query over the webhook outbox. */
  webhookDeliveries(): Promise<QueueDepth>;
  /** One aggregate query over the outside recipients waiting for the relay. */
  outboundMail(): Promise<QueueDepth>;
  /** Open WebSocket connections of the live event stream. */
  websocketConnections(): number;
  /** The database pool's use; absent when the database has no pool to report (SQLite: one connection, in process). */
  databasePool?: () => PoolUse;
}

export interface ServerMetricsOptions {
  sources: MetricsSources;
  /** A queue depth read this recently is answered again without a query. Default 1 s. */
  readingFreshForMs?: number;
  /** A scrape waits this long for a queue depth at most. Default 2 s. */
  readingAnswerWithinMs?: number;
}

interface GaugeText {
  name: string;
  help: string;
}

const WEBHOOK_OUTCOMES: readonly WebhookDeliveryOutcome[] = ["delivered", "retrying", "failed", "cancelled"];
const MAIL_OUTCOMES: readonly OutboundMailOutcome[] = ["delivered", "delayed", "bounced"];

/**
 * A server's metrics on a registry of its own (several servers may run in one process): the instruments the rooms
 * count with, the gauges read at scrape time, and the process's own metrics. See the monitoring guide for each.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly instruments: Instruments;
  readonly requests: RequestMeter;

  constructor(options: ServerMetricsOptions) {
    const { registry } = this;
    const registers = [registry];
    collectDefaultMetrics({ register: registry });
    this.requests = requestMeter(registry);
    const claims = new Counter({
      name: "pigeonhole_queue_claimed_rows_total",
      help: "Rows of a work queue this instance claimed for an attempt.",
      labelNames: ["queue"],
      registers,
    });
    const deliveries = new Counter({
      name: "pigeonhole_webhook_deliveries_total",
      help: "Webhook deliveries this instance attempted, by how the attempt ended.",
      labelNames: ["outcome"],
      registers,
    });
    const mail = new Counter({
      name: "pigeonhole_outbound_mail_attempts_total",
      help: "Attempts to relay mail to an outside recipient, by outcome.",
      labelNames: ["outcome"],
      registers,
    });
    for (const outcome of WEBHOOK_OUTCOMES) {
      deliveries.labels(outcome).inc(0);
    }
    for (const outcome of MAIL_OUTCOMES) {
      mail.labels(outcome).inc(0);
    }
    this.instruments = {
      workQueue: { claimed: (queue, rows) => claims.labels(queue).inc(rows) },
      webhookDeliveries: { finished: (outcome) => deliveries.labels(outcome).inc() },
      outboundMail: { attempted: (outcome) => mail.labels(outcome).inc() },
      smtp: smtpMeter(registry),
    };
    scrapeTimeGauges(registry, options);
  }

  /** The metrics in Prometheus's text format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

function requestMeter(registry: Registry): RequestMeter {
  const registers = [registry];
  const requests = new Counter({
    name: "pigeonhole_http_requests_total",
    help: "HTTP requests answered, by service, operation (the spec's operationId, or a fixed name) and status.",
    labelNames: ["service", "operation", "status"],
    registers,
  });
  const durations = new Histogram({
    name: "pigeonhole_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by service and operation.",
    labelNames: ["service", "operation"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  // The series of each label set, found once: looking one up by its labels costs more than counting in it. As few as
  // the label sets (fixed names, see RequestMeter).
  const series = new Map<
    string,
    { count: ReturnType<typeof requests.labels>; duration: ReturnType<typeof durations.labels> }
  >();
  return {
    answered(service, operation, status, durationSeconds) {
      const key = `${service} ${operation} ${status}`;
      let found = series.get(key);
      if (!found) {
        found = {
          count: requests.labels(service, operation, String(status)),
          duration: durations.labels(service, operation),
        };
        series.set(key, found);
      }
      found.count.inc();
      found.duration.observe(durationSeconds);
    },
  };
}

function smtpMeter(registry: Registry): SmtpMeter {
  const registers = [registry];
  const sessions = new Counter({
    name: "pigeonhole_smtp_sessions_total",
    help: "SMTP sessions opened.",
    registers,
  });
  const open = new Gauge({ name: "pigeonhole_smtp_sessions", help: "SMTP sessions open now.", registers });
  const connectionsRefused = new Counter({
    name: "pigeonhole_smtp_connections_refused_total",
    help: "SMTP connections refused before the greeting (421), by reason.",
    labelNames: ["reason"],
    registers,
  });
  const recipientsRefused = new Counter({
    name: "pigeonhole_smtp_recipients_refused_total",
    help: "Recipients refused at RCPT TO, by reason.",
    labelNames: ["reason"],
    registers,
  });
  const accepted = new Counter({
    name: "pigeonhole_smtp_messages_accepted_total",
    help: "Messages received over SMTP and stored (answered 250).",
    registers,
  });
  const refused = new Counter({
    name: "pigeonhole_smtp_messages_refused_total",
    help: "Messages refused after DATA, by reason.",
    labelNames: ["reason"],
    registers,
  });
  return {
    sessionOpened() {
      sessions.inc();
      open.inc();
    },
    sessionClosed: () => open.dec(),
    connectionRefused: (reason) => connectionsRefused.labels(reason).inc(),
    recipientRefused: (reason) => recipientsRefused.labels(reason).inc(),
    messageAccepted: () => accepted.inc(),
    messageRefused: (reason) => refused.labels(reason).inc(),
  };
}

/**
 * The gauges read when scraped. The queue depths are one aggregate query each, run at most once at a time and at most
 * once a second however many scrapes arrive (see BoundedReading); a reading that fails or is slow is answered as NaN
 * and counted.
 */
function scrapeTimeGauges(registry: Registry, options: ServerMetricsOptions): void {
  const registers = [registry];
  const { sources } = options;
  const bounds = {
    freshForMs: options.readingFreshForMs ?? 1_000,
    answerWithinMs: options.readingAnswerWithinMs ?? 2_000,
  };
  const failures = new Counter({
    name: "pigeonhole_metrics_reading_failures_total",
    help: "Scrape-time readings of the database that failed or did not answer in time (their gauges answer NaN).",
    labelNames: ["reading"],
    registers,
  });
  const queueGauges = (reading: string, read: () => Promise<QueueDepth>, waiting: GaugeText, due: GaugeText) => {
    const depth = new BoundedReading({ read, ...bounds });
    failures.labels(reading).inc(0);
    // Both gauges of a queue come from one reading: whichever is collected second gets it fresh, or joins it.
    const gauge = (text: GaugeText, pick: (depth: QueueDepth) => number, countsFailures: boolean) => {
      const made: Gauge = new Gauge({
        ...text,
        registers,
        async collect() {
          const value = await depth.value();
          if (value === undefined && countsFailures) {
            failures.labels(reading).inc();
          }
          made.set(value === undefined ? Number.NaN : pick(value));
        },
      });
    };
    gauge(waiting, (value) => value.waiting, true);
    gauge(due, (value) => value.due, false);
  };
  queueGauges(
    "webhook_deliveries",
    () => sources.webhookDeliveries(),
    {
      name: "pigeonhole_webhook_deliveries_pending",
      help: "Webhook deliveries pending: not yet delivered, failed for good or cancelled.",
    },
    { name: "pigeonhole_webhook_deliveries_due", help: "Pending webhook deliveries whose next attempt is due now." },
  );
  queueGauges(
    "outbound_mail",
    () => sources.outboundMail(),
    { name: "pigeonhole_outbound_mail_queued", help: "Outside recipients waiting for the relay (queued or delayed)." },
    {
      name: "pigeonhole_outbound_mail_due",
      help: "Outside recipients waiting for the relay whose next attempt is due now.",
    },
  );
  const websockets: Gauge = new Gauge({
    name: "pigeonhole_websocket_connections",
    help: "Open WebSocket connections of the live event stream.",
    registers,
    collect: () => websockets.set(sources.websocketConnections()),
  });
  const { databasePool } = sources;
  if (databasePool) {
    const pool: Gauge = new Gauge({
      name: "pigeonhole_database_pool_connections",
      help: "Connections of the database pool, by state: `idle`, or `in_use` by a query or transaction.",
      labelNames: ["state"],
      registers,
      collect() {
        const use = databasePool();
        pool.labels("idle").set(use.idle);
        pool.labels("in_use").set(use.total - use.idle);
      },
    });
    const waiting: Gauge = new Gauge({
      name: "pigeonhole_database_pool_waiting",
      help: "Queries waiting for a connection of the database pool.",
      registers,
      collect: () => waiting.set(databasePool().waiting),
    });
  }
}
