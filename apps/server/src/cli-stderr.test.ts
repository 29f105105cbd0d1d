import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CLI_ENTRY, ON_FREE_PORTS, runCli, TEST_KEYS } from "../test/support/cli-process.ts";

// What a running `pigeonhole-server` writes on stderr is for log collectors: one JSON object per line, from start to
// stop, warnings and failures included. Its banner, for people, stays on stdout.

/** Every line of `stderr`, each parsed as JSON: a line that is not JSON fails the test, naming it. */
function jsonLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`Not a JSON line on stderr: ${line}`);
      }
    });
}

const SHAPE = {
  time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
  level: expect.any(String),
  msg: expect.any(String),
};

/** Runs the CLI to its end without blocking this process; answers its exit status and output. */
const runToEnd = (args: string[]) =>
  promisify(execFile)(process.execPath, [CLI_ENTRY, ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, NODE_NO_WARNINGS: "1" },
  }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ ...error, status: error.code }),
  );

describe("pigeonhole-server on stderr", () => {
  it("writes only JSON lines through start, its warnings, requests and a SIGTERM stop; the banner stays on stdout", async () => {
    const cli = await runCli(["--memory", ...ON_FREE_PORTS, "--allow-private-webhooks"]);
    await (
      await fetch(`${cli.inboxUrl}/v0/inboxes`, { headers: { Authorization: `Bearer ${TEST_KEYS.inbox}` } })
    ).text();
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toEqual({ code: 0, signal: null });

    const lines = jsonLines(cli.stderr());
    for (const line of lines) {
      expect(line).toMatchObject(SHAPE);
    }
    const messages = lines.map((line) => line.msg);
    for (const expected of ["server started", "request", "signal received; stopping", "server stopped"]) {
      expect(messages).toContain(expected);
    }
    expect(lines.find((line) => line.msg === "signal received; stopping")).toMatchObject({
      level: "info",
      signal: "SIGTERM",
    });
    // One warning each for what lowers the server's guard, saying what it allows and how to turn it off.
    const warnings = lines.filter((line) => line.level === "warn" && line.option !== undefined);
    expect(warnings).toEqual([
      expect.objectContaining({
        option: "--allow-private-webhooks",
        msg: expect.stringContaining("private-network addresses"),
        turn_off: expect.stringContaining("without --allow-private-webhooks"),
      }),
      expect.objectContaining({
        option: "--test-control",
        msg: expect.stringContaining("wipe all data"),
        turn_off: expect.stringContaining("--no-test-control"),
      }),
    ]);
    expect(cli.stdout()).toMatch(/^Pigeonhole server is running\.\n/);
    expect(cli.stdout()).not.toContain("{");
  });

  it("warns of neither when both are off", async () => {
    const cli = await runCli(["--memory", ...ON_FREE_PORTS, "--no-test-control"]);
    cli.child.kill("SIGINT");
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    const lines = jsonLines(cli.stderr());
    expect(lines.filter((line) => line.option !== undefined)).toEqual([]);
    expect(lines.find((line) => line.msg === "signal received; stopping")).toMatchObject({ signal: "SIGINT" });
  });

  it("reports a failure to start as one JSON error line and exits with 1", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const failed = await runToEnd(["--memory", "--inbox-port", String(port), "--forum-port", "0", "--no-smtp"]);
      expect(failed.status).toBe(1);
      expect(failed.stdout).toBe("");
      const errors = jsonLines(failed.stderr).filter((line) => line.level === "error");
      expect(errors).toEqual([
        expect.objectContaining({
          ...SHAPE,
          msg: "server could not start",
          error: expect.stringContaining("EADDRINUSE"),
        }),
      ]);
    } finally {
      taken.close();
    }

    const refused = await runToEnd(["--memory", "--host", "0.0.0.0", "--inbox-port", "0", "--forum-port", "0"]);
    expect(refused.status).toBe(1);
    expect(jsonLines(refused.stderr)).toEqual([
      expect.objectContaining({
        level: "error",
        msg: "server could not start",
        error: expect.stringContaining("0.0.0.0 is not a loopback address"),
      }),
    ]);
  });
});
