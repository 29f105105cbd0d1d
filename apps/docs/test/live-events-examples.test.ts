import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createInboxClient, type InboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

/** An example running as its own Node process, as a reader runs it, with what it printed so far. */
interface Running {
  child: ChildProcess;
  lines: () => string[];
  output: () => string;
}

/** Polls `check` until it holds, for at most `ms`: events arrive asynchronously. */
async function eventually(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(50);
  }
}

describe("the live events guide's examples, listening to the server", () => {
  let server: Server;
  let inbox: InboxClient;
  let scratch: string;
  const running: Running[] = [];

  beforeAll(async () => {
    server = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
    inbox = createInboxClient({ baseUrl: server.inbox.url, apiKey: server.inbox.apiKey, maxRetries: 0 });
    await inbox.post("/v0/inboxes", { body: { username: "support" } });
    await inbox.post("/v0/inboxes", { body: { username: "ada" } });
    scratch = await mkdtemp(join(tmpdir(), "pigeonhole-live-events-"));
  });

  afterEach(async () => {
    for (const { child } of running.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await once(child, "exit");
      }
    }
  });

  afterAll(async () => {
    await server?.close();
    if (scratch) {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  function start(file: string, env: Record<string, string> = {}): Running {
    const child = spawn(process.execPath, [join(SITE_ROOT, "examples/guides", file)], {
      cwd: scratch,
      env: {
        ...process.env,
        ...env,
        PIGEONHOLE_INBOX_BASE_URL: server.inbox.url,
        PIGEONHOLE_INBOX_API_KEY: server.inbox.apiKey,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const example = { child, output: () => output, lines: () => output.split("\n").filter((line) => line !== "") };
    running.push(example);
    return example;
  }

  /** Ada writes to support. */
  const send = (subject: string) =>
    inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "ada@pigeonhole.test" } },
      body: { to: "support@pigeonhole.test", subject, text: "Hello" },
    });

  /**
   * An example subscribes a moment after it starts, and only events from then on reach it: write until it prints
   * one, then give what is on its way a moment to arrive.
   */
  async function writeUntilHeard(example: Running, subject: string): Promise<void> {
    for (let attempt = 0; !example.output().includes(subject); attempt++) {
      if (attempt === 50) {
        throw new Error(`the example heard none of 50 messages: ${example.output()}`);
      }
      await send(subject);
      await sleep(200);
    }
    await sleep(500);
  }

  /** Ctrl+C: the examples end their loop and exit on their own, which they can only do with the socket closed. */
  async function interrupt(example: Running): Promise<number | null> {
    example.child.kill("SIGINT");
    const [code] = (await once(example.child, "exit", { signal: AbortSignal.timeout(10_000) })) as [number | null];
    return code;
  }

  it("listen.ts prints each message support receives, and stops quietly on Ctrl+C", async () => {
    const listen = start("live-events.ts");
    await writeUntilHeard(listen, "Order 1043");
    // What support sends is a message.sent for support and a message.received for Ada: neither is printed.
    await inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "support@pigeonhole.test" } },
      body: { to: "ada@pigeonhole.test", subject: "Shipping today", text: "Hello" },
    });
    await send("Order 1044");
    await eventually(() => listen.output().includes("Order 1044"), "the second order");

    expect(await interrupt(listen)).toBe(0);
    const lines = listen.lines();
    expect(lines.at(-1)).toBe("stopped listening");
    expect(lines.at(-2)).toBe("ada@pigeonhole.test: Order 1044");
    expect(lines.slice(0, -2).every((line) => line === "ada@pigeonhole.test: Order 1043")).toBe(true);
  });

  it("resume.ts hears, after a restart, exactly the events it missed, in order", async () => {
    const checkpoint = join(scratch, "last-event-id.txt");
    const first = start("live-events-resume.ts", { CHECKPOINT_FILE: checkpoint });
    await writeUntilHeard(first, "Before the restart");
    expect(await interrupt(first)).toBe(0);
    const handled = first.lines().at(-1)?.split(" ")[0];
    expect(await readFile(checkpoint, "utf8")).toBe(handled);

    // Sent while nothing listens.
    await send("Missed 1");
    await send("Missed 2");

    const second = start("live-events-resume.ts", { CHECKPOINT_FILE: checkpoint });
    await eventually(() => second.lines().length === 2, "the two missed events");
    await send("Live again");
    await eventually(() => second.lines().length === 3, "the live event");
    expect(await interrupt(second)).toBe(0);

    const heard = second.lines().map((line) => line.split(" "));
    expect(heard.map(([, ...subject]) => subject.join(" "))).toEqual(["Missed 1", "Missed 2", "Live again"]);
    const ids = heard.map(([id]) => id);
    expect(new Set([handled, ...ids]).size).toBe(4);
    expect(await readFile(checkpoint, "utf8")).toBe(ids.at(-1));
  });

  it("ready.ts hears the message it sends right after the stream is ready, with no wait in between", async () => {
    const ready = start("live-events-ready.ts");
    const [code] = (await once(ready.child, "exit", { signal: AbortSignal.timeout(15_000) })) as [number | null];
    expect(ready.output()).toBe("ada@pigeonhole.test: Sent right after ready()\n");
    expect(code).toBe(0);
  });

  it("raw.ts speaks the protocol with the runtime's WebSocket", async () => {
    const raw = start("live-events-raw.ts");
    await eventually(() => raw.output().includes("subscribed to"), "the subscription");
    expect(raw.lines()).toEqual(["subscribed to [ 'message.received' ]"]);
    await send("Order 1045");
    await eventually(() => raw.output().includes("Order 1045"), "the event");
    expect(await interrupt(raw)).toBe(0);
    expect(raw.lines()).toEqual([
      "subscribed to [ 'message.received' ]",
      expect.stringMatching(/^\S+ Order 1045$/),
      "closed 1000",
    ]);
  });

  it("raw.ts prints the refusal of a key that is not valid", async () => {
    const raw = spawn(process.execPath, [join(SITE_ROOT, "examples/guides/live-events-raw.ts")], {
      env: { ...process.env, PIGEONHOLE_INBOX_BASE_URL: server.inbox.url, PIGEONHOLE_INBOX_API_KEY: "not-a-key" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.push({ child: raw, lines: () => [], output: () => "" });
    let output = "";
    raw.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const [code] = (await once(raw, "exit")) as [number | null];
    // The upgrade is answered 401, so no connection opens: the socket reports an abnormal close.
    expect(code).toBe(0);
    expect(output).toBe("closed 1006\n");
  });
});
