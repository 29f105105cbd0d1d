import type { WaitForMessageResponse } from "@pigeonhole/test-control-types";
import { createTransport } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../../../test/support/recording-logger.ts";
import type { Query } from "../../../test/support/test-control-requests.ts";
import { testControlOf } from "../../../test/support/test-control-requests.ts";
import type { TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";

// Wait For Message on the real server: every commit that stores a message (a send, mail over SMTP) wakes the waits.

const { logger, lines: logged } = recordingLogger();

let t: TestServer;
let control: ReturnType<typeof testControlOf>;
beforeAll(async () => {
  t = await startTestServer({ smtpPort: 0, logger });
  control = testControlOf(t.server);
});
afterAll(async () => {
  await t?.server.close();
});

let unique = 0;
const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++unique}`;

async function newInbox(username: string, displayName?: string) {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username, display_name: displayName } })).inbox_id;
}

async function send(
  from: string,
  body: { to: string; subject: string; text?: string; html?: string; labels?: string[] },
) {
  const sent = expectData(
    await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: from } }, body }),
  );
  return sent;
}

const waitForMessage = (query: Query, signal?: AbortSignal) =>
  control.get<WaitForMessageResponse>("/wait/message", query, signal);

/**
 * Gives a wait just sent time to make its first look and park. Should it still be looking when the message is
 * stored, that look finds it and the answer only comes sooner: the checks below never pass by it.
 */
const parked = () => new Promise((resolve) => setTimeout(resolve, 100));

/** The `request` log lines of waits for a message answered so far. */
const waitLines = () => logged.filter((line) => line.msg === "request" && line.path === "/_test/wait/message");

describe("waiting for a message", () => {
  // That the answer comes from the wake on commit, not from the poll, is proved by wait-until.test.ts with a poll
  // too slow to answer; here, on the real server, the answer is the message that was sent.
  it("answers a message sent while it waits, each time", async () => {
    const from = await newInbox(uniqueName("latency-from"));
    const to = await newInbox(uniqueName("latency-to"));
    for (let round = 0; round < 5; round++) {
      const subject = uniqueName("Arrives while waiting");
      const waiting = waitForMessage({ inbox_id: to, subject, timeout_ms: 5_000 });
      // Past the first look, so that only the wake on commit (or the slow poll, every 250 ms) can answer.
      await parked();
      const sent = await send(from, { to, subject, text: `Round ${round}: your code is 48291${round}.` });
      const answer = await waiting;
      expect(answer.status).toBe(200);
      expect(answer.body.message).toMatchObject({
        inbox_id: to,
        message_id: sent.message_id,
        labels: ["received", "unread"],
      });
      expect(answer.body.codes).toEqual([`48291${round}`]);
    }
  });

  it("answers a match already stored at once, the newest one, as the Inbox API shows it, with links and codes", async () => {
    const from = await newInbox(uniqueName("present-from"));
    const to = await newInbox(uniqueName("present-to"));
    const subject = uniqueName("Verify your address");
    await send(from, { to, subject, text: "older" });
    const newer = await send(from, {
      to,
      subject,
      text: "Your verification code is 482913.",
      html: '<p>Code <b>482913</b></p><p><a href="https://app.example.com/verify?token=8f3c&amp;u=1">Verify</a></p>',
    });
    const answer = await waitForMessage({ inbox_id: to, subject });
    expect(answer.status).toBe(200);
    expect(answer.elapsedMs).toBeLessThan(1_000);
    const shown = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: to, message_id: newer.message_id } },
      }),
    );
    expect(answer.body).toEqual({
      message: shown,
      links: ["https://app.example.com/verify?token=8f3c&u=1"],
      codes: ["482913"],
    });
  });

  it("times out with 404 WAIT_TIMED_OUT after timeout_ms, and at once with timeout_ms 0", async () => {
    const subject = uniqueName("Never sent");
    const answer = await control.get("/wait/message", { subject, timeout_ms: 400 });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      error: {
        type: "not_found_error",
        message: "No match within 400 ms.",
        details: { field: null, code: "WAIT_TIMED_OUT" },
      },
    });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(400);
    expect(answer.elapsedMs).toBeLessThan(1_500);

    const once = await control.get("/wait/message", { subject, timeout_ms: 0 });
    expect(once.status).toBe(404);
    expect(once.elapsedMs).toBeLessThan(400);
  });

  it("matches every filter: inbox, from and to (exact, any case), subject and text (contained, any case), labels, since", async () => {
    const sender = await newInbox(uniqueName("filters-from"), "Filter Sender");
    const other = await newInbox(uniqueName("filters-other"));
    const to = await newInbox(uniqueName("filters-to"));
    const tag = uniqueName("tag");
    const first = await send(sender, {
      to,
      subject: `${tag} Welcome aboard`,
      text: "Plain words only.",
      html: "<p>Press the <b>Magic Button</b> below.</p>",
      labels: ["onboarding"],
    });
    const second = await send(other, { to, subject: `${tag} Second`, text: "Nothing special." });
    const look = async (query: Record<string, string | readonly string[]>) => {
      const answer = await waitForMessage({ subject: tag, ...query, timeout_ms: 0 });
      return answer.status === 200
        ? `${answer.body.message.inbox_id} ${answer.body.message.message_id}`
        : answer.status;
    };
    const copy = (inboxId: string, message: { message_id: string }) => `${inboxId} ${message.message_id}`;

    // The newest copy of all: the recipient's copy of the second message.
    expect(await look({})).toBe(copy(to, second));
    expect(await look({ inbox_id: sender.toUpperCase() })).toBe(copy(sender, first));
    expect(await look({ from: sender.toUpperCase() })).toBe(copy(to, first));
    expect(await look({ from: `x${sender}` })).toBe(404);
    expect(await look({ to: to.toUpperCase(), from: other })).toBe(copy(to, second));
    expect(await look({ to: `a${to}` })).toBe(404);
    expect(await look({ subject: `${tag.toUpperCase()} WELCOME` })).toBe(copy(to, first));
    // In the html only.
    expect(await look({ text: "magic button" })).toBe(copy(to, first));
    expect(await look({ text: "plain WORDS", inbox_id: sender })).toBe(copy(sender, first));
    expect(await look({ text: "50%_off" })).toBe(404);
    expect(await look({ label: ["sent"] })).toBe(copy(other, second));
    expect(await look({ label: ["received", "unread"], from: sender })).toBe(copy(to, first));
    expect(await look({ label: ["sent", "onboarding"] })).toBe(copy(sender, first));
    expect(await look({ label: ["received", "onboarding"] })).toBe(404);

    const shown = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: to, message_id: second.message_id } },
      }),
    );
    // Inclusive: a message created at `since` matches; one created a millisecond before does not.
    expect(await look({ since: shown.created_at, inbox_id: to })).toBe(copy(to, second));
    const after = new Date(Date.parse(shown.created_at) + 1).toISOString();
    expect(await look({ since: after })).toBe(404);
    // Any offset is read as the time it names.
    const offset = new Date(Date.parse(shown.created_at) + 3_600_000).toISOString().replace("Z", "+01:00");
    expect(await look({ since: offset, inbox_id: to })).toBe(copy(to, second));
  });

  it("matches mail that arrives over SMTP", async () => {
    const to = await newInbox(uniqueName("smtp-to"));
    const subject = uniqueName("Reset your password");
    const waiting = waitForMessage({ to, from: "no-reply@app.example.com", subject, timeout_ms: 10_000 });
    await parked();
    const smtp = t.server.smtp;
    if (!smtp) {
      throw new Error("The server receives no mail.");
    }
    const transport = createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({
        from: "Example App <No-Reply@app.example.com>",
        to,
        subject,
        text: "Reset it at https://id.example.org/reset?user=42&token=Zx9 within the hour.",
        html: '<a href="https://id.example.org/reset?user=42&amp;token=Zx9">Reset password</a>',
      });
    } finally {
      transport.close();
    }
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.message).toMatchObject({
      inbox_id: to,
      subject,
      from: "Example App <No-Reply@app.example.com>",
    });
    expect(answer.body.links).toEqual(["https://id.example.org/reset?user=42&token=Zx9"]);
    expect(answer.body.codes).toEqual([]);
  });

  it("stops waiting when the client goes away, long before its timeout", async () => {
    const before = waitLines().length;
    const controller = new AbortController();
    const waiting = waitForMessage({ subject: uniqueName("Abandoned"), timeout_ms: 60_000 }, controller.signal);
    await parked();
    controller.abort();
    await expect(waiting).rejects.toThrow();
    // The request ends (and logs its line) once the wait has let go, not after the 60 s it asked for.
    const deadline = Date.now() + 5_000;
    while (waitLines().length === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [ended] = waitLines().slice(before);
    expect(ended?.duration_ms).toBeLessThan(2_000);
  });

  it.each([
    [{ timeout_ms: "60001" }, "timeout_ms", "INVALID_VALUE"],
    [{ timeout_ms: "-1" }, "timeout_ms", "INVALID_VALUE"],
    [{ timeout_ms: "1e3" }, "timeout_ms", "INVALID_TYPE"],
    [{ timeout_ms: ["1", "2"] }, "timeout_ms", "INVALID_TYPE"],
    [{ from: "not an address" }, "from", "INVALID_EMAIL"],
    [{ since: "yesterday" }, "since", "INVALID_VALUE"],
    [{ subject: "" }, "subject", "INVALID_VALUE"],
    [{ label: Array.from({ length: 21 }, (_, i) => `l${i}`) }, "label", "TOO_LONG"],
  ])("refuses bad input %j with 400", async (query, field, code) => {
    const answer = await control.get("/wait/message", query);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "validation_error", details: { field, code } });
  });
});
