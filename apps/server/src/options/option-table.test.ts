import { describe, expect, expectTypeOf, it } from "vitest";
import type { ResolvedOptions, ServerLimits, ServerOptions } from "../options.ts";
import { resolveOptions } from "../options.ts";
import { readEnvironment } from "./environment.ts";
import type { OptionTable, ValueOf, ValueOption } from "./option-definition.ts";
import { variableNamedAfter } from "./option-definition.ts";
import type { OptionName } from "./option-table.ts";
import { OPTIONS, optionEntries } from "./option-table.ts";
import { startOptions } from "./start-options.ts";

/** The type of the `startServer` option at a path of `sets`. */
type TargetOf<Path> = Path extends `limits.${infer Limit extends keyof ServerLimits}`
  ? ServerLimits[Limit]
  : Path extends keyof ServerOptions
    ? NonNullable<ServerOptions[Path]>
    : never;

/** The options of a table whose value would not fit the `startServer` option they set. */
type Misfits<Table extends OptionTable> = {
  [Name in keyof Table]: Table[Name] extends { readonly sets: infer Path }
    ? ValueOf<Table[Name]> extends TargetOf<Path>
      ? never
      : Name
    : never;
}[keyof Table];

/** The options of a table whose default is not a value the option could have been given. */
type WrongDefaults<Table extends OptionTable> = {
  [Name in keyof Table]: Table[Name] extends { readonly default: { readonly value: infer Value } }
    ? Value extends Readonly<ValueOf<Table[Name]>>
      ? never
      : Name
    : never;
}[keyof Table];

type WithDefaultValue = {
  [Name in OptionName]: (typeof OPTIONS)[Name] extends { readonly default: { readonly value: unknown } } ? Name : never;
}[OptionName];

/** Where the server keeps what each option with a default value sets, once the CLI and resolveOptions are through. */
const IN_USE: Record<WithDefaultValue, (resolved: ResolvedOptions) => unknown> = {
  database: (resolved) => resolved.database,
  databasePoolSize: (resolved) => resolved.databasePoolSize,
  databaseWaitMs: (resolved) => resolved.databaseWaitMs,
  drainDelayMs: (resolved) => resolved.drainDelayMs,
  host: (resolved) => resolved.host,
  inboxPort: (resolved) => resolved.inboxPort,
  forumPort: (resolved) => resolved.forumPort,
  domains: (resolved) => resolved.domains,
  smtpPort: (resolved) => resolved.smtp?.port,
  metricsHost: (resolved) => resolved.metrics?.host,
  smtpMaxSize: (resolved) => resolved.smtp?.maxSize,
  smtpConnectionsPerAddress: (resolved) => resolved.smtp?.connectionsPerAddress,
  smtpMaxConnections: (resolved) => resolved.smtp?.maxConnections,
  smtpRetryDelaysMs: (resolved) => resolved.mailRetryDelaysMs,
  smtpRelayClaimMs: (resolved) => resolved.relay?.claimMs,
  inboxRequestsPerMinute: (resolved) => resolved.limits.inboxRequestsPerMinute,
  inboxSendsPerDay: (resolved) => resolved.limits.inboxSendsPerDay,
  forumReadsPerMinute: (resolved) => resolved.limits.forumReadsPerMinute,
  forumWritesPerMinute: (resolved) => resolved.limits.forumWritesPerMinute,
  forumRegistrationsPerHour: (resolved) => resolved.limits.forumRegistrationsPerHour,
  authFailuresPerMinute: (resolved) => resolved.limits.authFailuresPerMinute,
  webhookRetryDelaysMs: (resolved) => resolved.webhookRetryDelaysMs,
  webhookClaimMs: (resolved) => resolved.webhookClaimMs,
  claimLeaseMs: (resolved) => resolved.claimLeaseMs,
  webhooksPerPod: (resolved) => resolved.webhooksPerPod,
  listEntriesPerPod: (resolved) => resolved.listEntriesPerPod,
  draftsPerPod: (resolved) => resolved.draftsPerPod,
  websocketConnectionsPerKey: (resolved) => resolved.websocketConnectionsPerKey,
  eventPollMs: (resolved) => resolved.eventPollMs,
  testControlKey: (resolved) => resolved.testControl?.key,
};

describe("the option table", () => {
  it("gives each option a value that fits the startServer option it sets, and defaults of that type", () => {
    expectTypeOf<Misfits<typeof OPTIONS>>().toEqualTypeOf<never>();
    expectTypeOf<WrongDefaults<typeof OPTIONS>>().toEqualTypeOf<never>();
    // The checks above catch a row that does not fit.
    type Misfit = { port: ValueOption<string> & { readonly sets: "inboxPort" } };
    expectTypeOf<Misfits<Misfit>>().toEqualTypeOf<"port">();
  });

  it("documents the defaults the server uses when the command line leaves an option out", () => {
    // What `pigeonhole-server` with no option starts with (a relay and metrics added, so that their defaults show).
    const { database: _, ...cli } = startOptions({}, {});
    const resolved = resolveOptions(
      { ...cli, smtpRelay: "smtp://relay.example.com", metricsPort: 0, logger: false },
      {},
    );
    for (const [name, inUse] of Object.entries(IN_USE)) {
      const documented = OPTIONS[name as WithDefaultValue].default;
      expect({ name, value: inUse(resolved) }).toEqual({ name, value: documented.value });
    }
  });

  it("names each option's variable after its flag, but for the older names variables keep", () => {
    const older = optionEntries().flatMap(([name, { env, flag }]) =>
      env !== null && env.name !== variableNamedAfter(flag).name ? [[name, env.name]] : [],
    );
    expect(older).toEqual([["database", "PIGEONHOLE_DATABASE_URL"]]);
    // Nothing but its variable sets an option: the environment with no variable set starts as no option does.
    expect(startOptions({}, readEnvironment({ PIGEONHOLE_TEST_BACKEND: "postgres" }, "start"))).toEqual(
      startOptions({}, {}),
    );
  });

  it("gives every flag one option", () => {
    const flags = optionEntries().flatMap(([, option]) => [
      option.flag,
      ...(option.formerFlag === undefined ? [] : [option.formerFlag]),
      ...(option.short === undefined ? [] : [option.short]),
    ]);
    expect(flags.length).toBe(new Set(flags).size);
  });
});
