import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "./command-line.ts";
import { readEnvironment, withEnvironment } from "./environment.ts";
import type { CommandLineOption, EnvVariable } from "./option-definition.ts";
import { fileVariableOf, variableNamedAfter } from "./option-definition.ts";
import { heloName, wholeNumber, wholeNumbers } from "./option-parsers.ts";
import type { CommandLineValues, OptionName } from "./option-table.ts";
import { OPTIONS, optionEntries } from "./option-table.ts";
import { SecretFileError } from "./secret-file.ts";
import { startOptions } from "./start-options.ts";
import { UsageError } from "./usage-error.ts";

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-environment-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file holding `text`, as an operator writes a secret (with `echo`, so with a line end). */
function fileHolding(text: string): string {
  const path = join(dir, `secret-${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, text);
  return path;
}

/** The text of each option's variable and what it reads: an option given a variable needs one here. */
const EXAMPLES: { [Name in OptionName]?: { text: string; value: NonNullable<CommandLineValues[Name]> } } = {
  database: {
    text: "postgres://pigeonhole:secret@db.internal:5432/pigeonhole",
    value: "postgres://pigeonhole:secret@db.internal:5432/pigeonhole",
  },
  databasePoolSize: { text: "3", value: 3 },
  memory: { text: "true", value: true },
  devKeys: { text: "false", value: false },
  host: { text: "127.0.0.2", value: "127.0.0.2" },
  inboxPort: { text: "4011", value: 4011 },
  forumPort: { text: "4021", value: 4021 },
  metricsPort: { text: "9464", value: 9464 },
  metricsHost: { text: "127.0.0.4", value: "127.0.0.4" },
  domains: { text: "a.example.com, b.example.com", value: ["a.example.com", "b.example.com"] },
  smtpPort: { text: "2526", value: 2526 },
  smtpHost: { text: "127.0.0.3", value: "127.0.0.3" },
  smtp: { text: "0", value: false },
  smtpMaxSize: { text: "1000000", value: 1_000_000 },
  smtpConnectionsPerAddress: { text: "3", value: 3 },
  smtpMaxConnections: { text: "7", value: 7 },
  smtpTlsCert: { text: "cert.pem", value: "cert.pem" },
  smtpTlsKey: { text: "key.pem", value: "key.pem" },
  smtpRelay: { text: "smtp://user:pass@relay.example.com", value: "smtp://user:pass@relay.example.com" },
  smtpRelayInsecure: { text: "1", value: true },
  smtpHeloName: { text: "out.example.com", value: "out.example.com" },
  smtpRetryDelaysMs: { text: "1000,2000", value: [1000, 2000] },
  smtpRelayClaimMs: { text: "120000", value: 120_000 },
  dkimDomain: { text: "a.example.com", value: "a.example.com" },
  dkimSelector: { text: "s1", value: "s1" },
  dkimKey: { text: "dkim.pem", value: "dkim.pem" },
  allowPrivateWebhooks: { text: "true", value: true },
  trustedProxies: { text: "10.0.0.1,10.0.0.2", value: ["10.0.0.1", "10.0.0.2"] },
  inboxRequestsPerMinute: { text: "500", value: 500 },
  inboxSendsPerDay: { text: "50", value: 50 },
  forumReadsPerMinute: { text: "61", value: 61 },
  forumWritesPerMinute: { text: "31", value: 31 },
  forumRegistrationsPerHour: { text: "11", value: 11 },
  authFailuresPerMinute: { text: "70", value: 70 },
  webhookRetryDelaysMs: { text: "1000, 10000", value: [1000, 10_000] },
  webhookClaimMs: { text: "40000", value: 40_000 },
  claimLeaseMs: { text: "5000", value: 5_000 },
  webhooksPerPod: { text: "5", value: 5 },
  websocketConnectionsPerKey: { text: "4", value: 4 },
  eventPollMs: { text: "500", value: 500 },
  testControl: { text: "false", value: false },
  testControlKey: { text: "own-key", value: "own-key" },
  quiet: { text: "true", value: true },
};

/** The options of start with a variable, by name. */
const startVariables = optionEntries().filter(([, option]) => option.env !== null && option.commands.includes("start"));

const variable = (name: OptionName): EnvVariable["name"] => {
  const { env } = OPTIONS[name];
  if (env === null) {
    throw new Error(`--${OPTIONS[name].flag} has no variable`);
  }
  return env.name;
};

describe("options from the environment", () => {
  it("give every option of start a variable named after its flag, but for the database's older name", () => {
    for (const [name, option] of startVariables) {
      const expected = name === "database" ? "PIGEONHOLE_DATABASE_URL" : variableNamedAfter(option.flag).name;
      expect({ name, variable: option.env?.name }).toEqual({ name, variable: expected });
    }
    const without = optionEntries().flatMap(([name, option]) => (option.env === null ? [name] : []));
    expect(without).toEqual(["service", "name", "pod", "createDb", "help", "version"]);
  });

  it("read each variable as its flag would be read", () => {
    // A whole number needs no example of its own.
    const exampleOf = (name: string, option: CommandLineOption) =>
      EXAMPLES[name as OptionName] ??
      (option.kind === "value" && option.parse === wholeNumber ? { text: "7", value: 7 } : undefined);
    const missing = startVariables.filter(([name, option]) => exampleOf(name, option) === undefined);
    expect(
      missing.map(([name]) => name),
      "an option with a variable needs an example in EXAMPLES",
    ).toEqual([]);
    for (const [name, option] of startVariables) {
      const read = readEnvironment({ [variable(name as OptionName)]: exampleOf(name, option)?.text ?? "" }, "start");
      expect({ name, read }).toEqual({ name, read: { [name]: exampleOf(name, option)?.value } });
    }
  });

  it("read every variable at once into the options startServer is given", () => {
    const env = Object.fromEntries(
      Object.entries(EXAMPLES)
        // Those that exclude others, and the files that would be read.
        .filter(([name]) => !["memory", "smtp", "testControl", "smtpTlsCert", "smtpTlsKey"].includes(name))
        .filter(([name]) => !["dkimDomain", "dkimSelector", "dkimKey"].includes(name))
        .map(([name, example]) => [variable(name as OptionName), example.text]),
    );
    const options = startOptions({}, readEnvironment(env, "start"));
    expect(options).toMatchObject({
      database: "postgres://pigeonhole:secret@db.internal:5432/pigeonhole",
      inboxPort: 4011,
      domains: ["a.example.com", "b.example.com"],
      smtpPort: 2526,
      smtpHeloName: "out.example.com",
      trustedProxies: ["10.0.0.1", "10.0.0.2"],
      devKeys: false,
      testControlKey: "own-key",
      limits: { inboxRequestsPerMinute: 500, forumWritesPerMinute: 31 },
    });
    // The key's variable does not turn test control on.
    expect(options.testControl).toBeUndefined();
  });

  it("let a flag on the command line win over its variable, and over the variable of an option it excludes", () => {
    const env = readEnvironment(
      { PIGEONHOLE_INBOX_PORT: "4011", PIGEONHOLE_DATABASE_URL: "env.db", PIGEONHOLE_SMTP_PORT: "2600" },
      "start",
    );
    const options = startOptions(parseCommandLine(["--inbox-port", "4012", "--memory", "--no-smtp"]).values, env);
    expect(options).toMatchObject({ inboxPort: 4012, database: ":memory:", smtpPort: undefined });
    expect(
      startOptions(
        parseCommandLine(["--smtp-port", "2700"]).values,
        readEnvironment({ PIGEONHOLE_SMTP: "false" }, "start"),
      ).smtpPort,
    ).toBe(2700);
    expect(
      startOptions(
        parseCommandLine(["--database", "flag.db"]).values,
        readEnvironment({ PIGEONHOLE_MEMORY: "1" }, "start"),
      ).database,
    ).toMatch(/flag\.db$/);
    // Both from the environment, they contradict each other as both flags would.
    expect(() =>
      startOptions({}, readEnvironment({ PIGEONHOLE_SMTP: "false", PIGEONHOLE_SMTP_PORT: "25" }, "start")),
    ).toThrow(UsageError);
    expect(() =>
      startOptions({}, readEnvironment({ PIGEONHOLE_MEMORY: "true", PIGEONHOLE_DATABASE_URL: "x.db" }, "start")),
    ).toThrow(UsageError);
    expect(withEnvironment({ quiet: false }, { quiet: true, inboxPort: 1 })).toEqual({ quiet: false, inboxPort: 1 });
  });

  it("refuse a value the option's parser refuses, naming the variable", () => {
    const numeric = startVariables.filter(
      ([, option]) => option.kind === "value" && (option.parse === wholeNumber || option.parse === wholeNumbers),
    );
    expect(numeric.length).toBeGreaterThan(10);
    for (const [name] of numeric) {
      const name_ = variable(name as OptionName);
      expect(() => readEnvironment({ [name_]: "many" }, "start")).toThrow(
        new UsageError(`${name_} takes a whole number, not 'many'.`),
      );
    }
    expect(() => readEnvironment({ PIGEONHOLE_WEBHOOK_RETRY_DELAYS: "1000,soon" }, "start")).toThrow(
      new UsageError("PIGEONHOLE_WEBHOOK_RETRY_DELAYS takes a whole number, not 'soon'."),
    );
    expect(() => readEnvironment({ PIGEONHOLE_SMTP_HELO_NAME: "out.example.com\r\nRSET" }, "start")).toThrow(
      /^PIGEONHOLE_SMTP_HELO_NAME: 'out\.example\.com\r\nRSET' is not a host name/,
    );
  });

  it("read a switch's variable as true or 1, false or 0, and refuse anything else", () => {
    const switches = startVariables.filter(([, option]) => option.kind === "switch");
    expect(switches.map(([name]) => name)).toContain("smtp");
    for (const [name] of switches) {
      const name_ = variable(name as OptionName);
      for (const [text, value] of [
        ["true", true],
        ["1", true],
        ["false", false],
        ["0", false],
      ] as const) {
        expect(readEnvironment({ [name_]: text }, "start")).toEqual({ [name]: value });
      }
      for (const text of ["yes", "on", "TRUE", "2", " true"]) {
        expect(() => readEnvironment({ [name_]: text }, "start")).toThrow(
          new UsageError(`${name_} takes true or 1 (on) or false or 0 (off), not '${text}'.`),
        );
      }
    }
    // PIGEONHOLE_SMTP=false is --no-smtp.
    expect(startOptions({}, readEnvironment({ PIGEONHOLE_SMTP: "false" }, "start")).smtpPort).toBeUndefined();
  });

  it("count an empty variable as unset", () => {
    const empty = Object.fromEntries(startVariables.map(([, option]) => [option.env?.name, ""]));
    expect(readEnvironment(empty, "start")).toEqual({});
  });

  it("read a repeatable option's values separated by commas, refusing an empty one", () => {
    expect(readEnvironment({ PIGEONHOLE_DOMAIN: "a.example.com" }, "start")).toEqual({ domains: ["a.example.com"] });
    for (const text of ["a.example.com,,b.example.com", "a.example.com,", ",a.example.com"]) {
      expect(() => readEnvironment({ PIGEONHOLE_DOMAIN: text }, "start")).toThrow(
        new UsageError(`PIGEONHOLE_DOMAIN holds values separated by single commas, with none empty, not '${text}'.`),
      );
    }
  });

  it("read a secret from the file its _FILE variable names, without the line end, and only a secret", () => {
    const secrets = optionEntries().flatMap(([name, option]) => (option.secret ? [name] : []));
    expect(secrets).toEqual(["database", "smtpRelay", "testControlKey"]);
    for (const name of secrets) {
      const { text, value } = EXAMPLES[name as OptionName] ?? { text: "", value: "" };
      const env = { [fileVariableOf({ name: variable(name as OptionName) })]: fileHolding(`${text}\n`) };
      expect(readEnvironment(env, "start")).toEqual({ [name]: value });
    }
    expect(readEnvironment({ PIGEONHOLE_TEST_CONTROL_KEY_FILE: fileHolding("k\r\n\n") }, "start")).toEqual({
      testControlKey: "k\r\n",
    });
    expect(readEnvironment({ PIGEONHOLE_INBOX_PORT_FILE: fileHolding("4011") }, "start")).toEqual({});
  });

  it("refuse a secret given both ways, and a file that is missing, unreadable or empty", () => {
    const path = fileHolding("smtp://relay.example.com");
    expect(() =>
      readEnvironment({ PIGEONHOLE_SMTP_RELAY: "smtp://a", PIGEONHOLE_SMTP_RELAY_FILE: path }, "start"),
    ).toThrow(
      new UsageError("PIGEONHOLE_SMTP_RELAY and PIGEONHOLE_SMTP_RELAY_FILE both give --smtp-relay; set one of them."),
    );
    const missing = join(dir, "missing");
    expect(() => readEnvironment({ PIGEONHOLE_SMTP_RELAY_FILE: missing }, "start")).toThrow(SecretFileError);
    expect(() => readEnvironment({ PIGEONHOLE_SMTP_RELAY_FILE: missing }, "start")).toThrow(
      `PIGEONHOLE_SMTP_RELAY_FILE names ${missing}, which cannot be read: ENOENT`,
    );
    expect(() => readEnvironment({ PIGEONHOLE_DATABASE_URL_FILE: dir }, "start")).toThrow(
      `PIGEONHOLE_DATABASE_URL_FILE names ${dir}, which cannot be read: EISDIR`,
    );
    const empty = fileHolding("\n");
    expect(() => readEnvironment({ PIGEONHOLE_TEST_CONTROL_KEY_FILE: empty }, "start")).toThrow(
      new SecretFileError(`PIGEONHOLE_TEST_CONTROL_KEY_FILE names ${empty}, which is empty.`),
    );
  });

  it("read only the variables of the command's own options", () => {
    const env = {
      PIGEONHOLE_INBOX_PORT: "many",
      PIGEONHOLE_SMTP_RELAY_FILE: join(dir, "missing"),
      PIGEONHOLE_DATABASE_URL: "keys.db",
    };
    expect(readEnvironment(env, "keys")).toEqual({ database: "keys.db" });
  });

  it("leave test control to its default with the key's variable, and turn it on or off as its flags say", () => {
    const key = { PIGEONHOLE_TEST_CONTROL_KEY: "own-key" };
    const on = (commandLine: string[], env: Record<string, string>) => {
      const options = startOptions(parseCommandLine(commandLine).values, readEnvironment(env, "start"));
      return { testControl: options.testControl, key: options.testControlKey };
    };
    expect(on([], key)).toEqual({ testControl: undefined, key: "own-key" });
    expect(on([], { ...key, PIGEONHOLE_TEST_CONTROL: "true" })).toEqual({ testControl: {}, key: "own-key" });
    expect(on(["--no-test-control"], key)).toEqual({ testControl: false, key: "own-key" });
    expect(on([], { ...key, PIGEONHOLE_TEST_CONTROL: "false" })).toEqual({ testControl: false, key: "own-key" });
    expect(on(["--test-control-key", "flag-key"], { PIGEONHOLE_TEST_CONTROL: "false" })).toEqual({
      testControl: {},
      key: "flag-key",
    });
    // Without development keys, test control asked for needs a key, from a flag, a variable or a file.
    expect(() => on(["--no-dev-keys", "--test-control"], {})).toThrow(UsageError);
    const file = { PIGEONHOLE_TEST_CONTROL_KEY_FILE: fileHolding("file-key\n") };
    expect(on(["--no-dev-keys", "--test-control"], file)).toEqual({ testControl: {}, key: "file-key" });
  });
});

describe("the EHLO name's parser", () => {
  it("takes a host name or an address literal, and nothing that could change the SMTP conversation", () => {
    for (const name of ["mail.example.com", "vm", "[192.0.2.1]", "[IPv6:2001:db8::1]", "A-1.example.COM"]) {
      expect(heloName(name, "--smtp-helo-name")).toBe(name);
    }
    for (const name of [
      "",
      "bad_name.example.com",
      "-a.example.com",
      "a..example.com",
      "a b",
      "[999.0.0.1]",
      "x\r\nRSET",
    ]) {
      expect(() => heloName(name, "--smtp-helo-name"), name).toThrow(UsageError);
    }
  });
});
