/** The databases the benchmark can run the server on. */
export const BACKENDS = ["sqlite", "postgres"] as const;
export type Backend = (typeof BACKENDS)[number];

export interface BenchSettings {
  backends: Backend[];
  /** Server instances to run on PostgreSQL, one configuration each; SQLite always runs one. */
  instances: number[];
  /** Length of each measurement. */
  seconds: number;
  /** Open connections of the load generator, spread evenly over the instances. */
  connections: number;
  /** Posts seeded before the measurements. */
  posts: number;
  /** An existing, empty PostgreSQL database to fill; without one, a throw-away cluster on 127.0.0.1. */
  databaseUrl?: string;
  /** Connections of each instance's PostgreSQL pool; the server's default when unset. */
  poolSize?: number;
  /** The event fan-out: WebSocket subscribers, messages sent, and the time from one send's start to the next. */
  fanOut: { subscribers: number; messages: number; intervalMs: number };
  /** Messages each mail scenario handles: received over SMTP, and sent through the API on to a relay. */
  mailMessages: number;
  /** The webhook delivery: messages sent, and the time from one send's start to the next. */
  webhook: { messages: number; intervalMs: number };
  /**
   * What to run, as lower-case pieces of names: a scenario, the event fan-out or the mail scenarios runs when its name
   * holds one of them (see `selectsPart`); everything runs when unset.
   */
  scenarios?: string[];
}

export class BenchSettingsError extends Error {
  override name = "BenchSettingsError";
}

// Upper bounds keep a mistyped value from starting a run that does not end.
const LIMITS = {
  seconds: 600,
  connections: 10_000,
  posts: 1_000_000,
  instances: 64,
  poolSize: 1_000,
  subscribers: 10_000,
  events: 100_000,
  eventIntervalMs: 10_000,
  mailMessages: 100_000,
  webhookMessages: 100_000,
  webhookIntervalMs: 10_000,
};

function whole(name: string, text: string, max: number): number {
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > max) {
    throw new BenchSettingsError(`${name} must be a whole number from 1 to ${max}, not '${text}'.`);
  }
  return value;
}

function list(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

// Long enough for every name the benchmark has; a longer piece matches nothing and is surely a mistake.
const SCENARIO_FILTER_LENGTH = 100;

function scenarioFilters(text: string | undefined): string[] | undefined {
  if (text === undefined || text.trim() === "") {
    return undefined;
  }
  const filters = unique(list(text.toLowerCase()));
  if (filters.length === 0 || filters.some((filter) => filter.length > SCENARIO_FILTER_LENGTH)) {
    throw new BenchSettingsError(
      `BENCH_SCENARIOS takes a comma-separated list of pieces of scenario names (each up to ` +
        `${SCENARIO_FILTER_LENGTH} characters), not '${text}'.`,
    );
  }
  return filters;
}

/** Whether the scenario, or part of the run, of this name runs: always when no filter is set. */
export function selectsPart(settings: Pick<BenchSettings, "scenarios">, name: string): boolean {
  const lowerName = name.toLowerCase();
  return settings.scenarios?.some((filter) => lowerName.includes(filter)) ?? true;
}

/** The filters of `BENCH_SCENARIOS` that select none of `names`: each is a mistake, refused before a long run. */
export function unmatchedFilters(settings: Pick<BenchSettings, "scenarios">, names: readonly string[]): string[] {
  const lowerNames = names.map((name) => name.toLowerCase());
  return (settings.scenarios ?? []).filter((filter) => !lowerNames.some((name) => name.includes(filter)));
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

function isBackend(name: string): name is Backend {
  return (BACKENDS as readonly string[]).includes(name);
}

/**
 * Reads `BENCH_BACKENDS` (default `sqlite,postgres`), `BENCH_INSTANCES` (default `1,2`), `BENCH_SECONDS` (5),
 * `BENCH_CONNECTIONS` (10), `BENCH_POSTS` (10000), `BENCH_DATABASE_URL`, `BENCH_POOL_SIZE`, and for the event
 * fan-out `BENCH_SUBSCRIBERS` (100), `BENCH_EVENTS` (200 messages) and `BENCH_EVENT_INTERVAL_MS` (10), and for the
 * mail scenarios `BENCH_SMTP_MESSAGES` (500), for the webhook delivery `BENCH_WEBHOOK_MESSAGES` (200) and
 * `BENCH_WEBHOOK_INTERVAL_MS` (20), and `BENCH_SCENARIOS` (everything) to run only the scenarios (and parts: `event
 * fan-out`, `mail`, `webhook delivery`) whose names hold one of its comma-separated, case-insensitive pieces.
 */
export function readBenchSettings(env: Readonly<Record<string, string | undefined>>): BenchSettings {
  const backends = unique(list(env.BENCH_BACKENDS || "sqlite,postgres"));
  const unknown = backends.filter((name) => !isBackend(name));
  if (backends.length === 0 || unknown.length > 0) {
    throw new BenchSettingsError(
      `BENCH_BACKENDS takes a comma-separated list of ${BACKENDS.join(" and ")}, not '${env.BENCH_BACKENDS}'.`,
    );
  }
  const instances = unique(
    list(env.BENCH_INSTANCES || "1,2").map((n) => whole("BENCH_INSTANCES", n, LIMITS.instances)),
  );
  if (instances.length === 0) {
    throw new BenchSettingsError(`BENCH_INSTANCES takes a comma-separated list of instance counts.`);
  }
  const databaseUrl = env.BENCH_DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new BenchSettingsError("BENCH_DATABASE_URL must be a postgres:// address.");
  }
  const connections = whole("BENCH_CONNECTIONS", env.BENCH_CONNECTIONS || "10", LIMITS.connections);
  if (backends.includes("postgres") && connections < Math.max(...instances)) {
    throw new BenchSettingsError(
      `BENCH_CONNECTIONS (${connections}) must be at least the largest instance count, so that each instance has load.`,
    );
  }
  return {
    backends: backends.filter(isBackend),
    instances,
    seconds: whole("BENCH_SECONDS", env.BENCH_SECONDS || "5", LIMITS.seconds),
    connections,
    posts: whole("BENCH_POSTS", env.BENCH_POSTS || "10000", LIMITS.posts),
    databaseUrl,
    poolSize: env.BENCH_POOL_SIZE ? whole("BENCH_POOL_SIZE", env.BENCH_POOL_SIZE, LIMITS.poolSize) : undefined,
    fanOut: {
      subscribers: whole("BENCH_SUBSCRIBERS", env.BENCH_SUBSCRIBERS || "100", LIMITS.subscribers),
      messages: whole("BENCH_EVENTS", env.BENCH_EVENTS || "200", LIMITS.events),
      intervalMs: whole("BENCH_EVENT_INTERVAL_MS", env.BENCH_EVENT_INTERVAL_MS || "10", LIMITS.eventIntervalMs),
    },
    mailMessages: whole("BENCH_SMTP_MESSAGES", env.BENCH_SMTP_MESSAGES || "500", LIMITS.mailMessages),
    webhook: {
      messages: whole("BENCH_WEBHOOK_MESSAGES", env.BENCH_WEBHOOK_MESSAGES || "200", LIMITS.webhookMessages),
      intervalMs: whole("BENCH_WEBHOOK_INTERVAL_MS", env.BENCH_WEBHOOK_INTERVAL_MS || "20", LIMITS.webhookIntervalMs),
    },
    scenarios: scenarioFilters(env.BENCH_SCENARIOS),
  };
}
