import { swaks } from "@pigeonhole/mail-testing";
import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "../clients/agentmail/agentmail-server.ts";
import { testControlOf } from "../support/test-control-requests.ts";
import { expectData, inboxClient } from "../support/test-server.ts";

// Allow and block lists hold against hostile senders and hostile pods: mail over real SMTP (Debian's swaks, over
// loopback) from a blocked sender never reaches the inbox, and one pod's lists neither bear on nor reveal another's.

/** A small bound on list entries per pod, so that reaching it takes a few requests. */
const ENTRIES_PER_POD = 10;
const served = agentMailServerForFile({ smtpPort: 0, listEntriesPerPod: ENTRIES_PER_POD });
let runs = 0;

async function newPodWithInbox(name: string) {
  const { sdk, apiKey } = await served.newPod();
  const client = inboxClient(served.server.inbox.url, apiKey);
  const inbox = (await sdk.inboxes.create({ username: `${name}-${++runs}` })).inboxId;
  return { sdk, apiKey, client, inbox };
}

type Pod = Awaited<ReturnType<typeof newPodWithInbox>>;

async function subjectsIn({ sdk, inbox }: Pod): Promise<(string | undefined)[]> {
  return (await sdk.inboxes.messages.list(inbox)).messages.map((message) => message.subject);
}

/** Mails `recipients` over SMTP with this envelope sender and `From` header; answers swaks's exit code and output. */
async function mail(options: { envelopeFrom: string; headerFrom: string; to: string[]; subject: string }) {
  return swaks([
    "--server",
    `127.0.0.1:${served.server.smtp?.port}`,
    "--timeout",
    "20",
    "--from",
    options.envelopeFrom,
    "--to",
    options.to.join(","),
    "--header",
    `From: ${options.headerFrom}`,
    "--header",
    `Subject: ${options.subject}`,
    "--body",
    "Hello over SMTP.",
  ]);
}

async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentMailError);
  return (error as AgentMailError).statusCode;
}

describe("mail over SMTP from a sender the lists refuse", () => {
  it("is answered 554 5.7.1 and stored nowhere when every recipient inbox refuses it", async () => {
    const pod = await newPodWithInbox("smtp-blocked");
    await pod.sdk.lists.create("receive", "block", { entry: "Partner.Example" });
    const sent = await mail({
      envelopeFrom: "bounces@other.example",
      headerFrom: "Mallory <mallory@mail.partner.example>",
      to: [pod.inbox],
      subject: "blocked over smtp",
    });
    expect(sent.exitCode, sent.output).not.toBe(0);
    expect(sent.output).toContain("554 5.7.1");
    expect(await subjectsIn(pod)).toEqual([]);
    expect((await pod.sdk.inboxes.threads.list(pod.inbox)).threads).toEqual([]);
  });

  it("is stored only in the recipient inboxes that admit it when some do", async () => {
    const refusing = await newPodWithInbox("smtp-refusing");
    const admitting = await newPodWithInbox("smtp-admitting");
    await refusing.sdk.inboxes.lists.create(refusing.inbox, "receive", "block", { entry: "mallory@partner.example" });
    const sent = await mail({
      envelopeFrom: "mallory@partner.example",
      headerFrom: "MALLORY@partner.example",
      to: [refusing.inbox, admitting.inbox],
      subject: "to both",
    });
    expect(sent.exitCode, sent.output).toBe(0);
    expect(await subjectsIn(refusing)).toEqual([]);
    expect(await subjectsIn(admitting)).toEqual(["to both"]);
  });

  it("matches the From header's address, not the envelope's MAIL FROM", async () => {
    const pod = await newPodWithInbox("smtp-header");
    await pod.sdk.lists.create("receive", "block", { entry: "blocked@partner.example" });
    const byEnvelope = await mail({
      envelopeFrom: "blocked@partner.example",
      headerFrom: "friend@partner.example",
      to: [pod.inbox],
      subject: "blocked envelope, other From",
    });
    expect(byEnvelope.exitCode, byEnvelope.output).toBe(0);
    const byHeader = await mail({
      envelopeFrom: "friend@partner.example",
      headerFrom: "Blocked <blocked@partner.example>",
      to: [pod.inbox],
      subject: "blocked From",
    });
    expect(byHeader.exitCode, byHeader.output).not.toBe(0);
    expect(await subjectsIn(pod)).toEqual(["blocked envelope, other From"]);
  });

  it("admits only the allow list's entries when it has some; mail without a From address then is refused", async () => {
    const pod = await newPodWithInbox("smtp-allow");
    await pod.sdk.inboxes.lists.create(pod.inbox, "receive", "allow", { entry: "friend@partner.example" });
    for (const [headerFrom, subject] of [
      ["Friend <Friend@Partner.example>", "from the friend"],
      ["stranger@partner.example", "from a stranger"],
      ["undisclosed-recipients:;", "from nobody"],
    ] as const) {
      await mail({ envelopeFrom: "friend@partner.example", headerFrom, to: [pod.inbox], subject });
    }
    expect(await subjectsIn(pod)).toEqual(["from the friend"]);
  });
});

describe("one pod's lists and another's", () => {
  it("never bear on another pod's inboxes, over SMTP or over the API", async () => {
    const blocker = await newPodWithInbox("blocker");
    const bystander = await newPodWithInbox("bystander");
    const sender = await newPodWithInbox("sender");
    await blocker.sdk.lists.create("receive", "block", { entry: "partner.example" });
    await blocker.sdk.lists.create("receive", "block", { entry: sender.inbox });
    await blocker.sdk.lists.create("receive", "allow", { entry: "only.example" });
    await blocker.sdk.lists.create("send", "block", { entry: "partner.example" });
    await blocker.sdk.inboxes.lists.create(blocker.inbox, "receive", "block", { entry: bystander.inbox });

    const smtp = await mail({
      envelopeFrom: "ada@partner.example",
      headerFrom: "ada@partner.example",
      to: [bystander.inbox],
      subject: "over smtp",
    });
    expect(smtp.exitCode, smtp.output).toBe(0);
    expectData(
      await sender.client.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sender.inbox } },
        body: { to: [bystander.inbox], subject: "over the api", text: "x" },
      }),
    );
    expectData(
      await bystander.client.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: bystander.inbox } },
        body: { to: ["ada@partner.example"], subject: "out", text: "x" },
      }),
    );
    expect(await subjectsIn(bystander)).toEqual(["out", "over the api", "over smtp"]);
  });

  it("are hidden from another pod: its entries answer 404 there, and nothing there changes them", async () => {
    const owner = await newPodWithInbox("owner");
    const intruder = await newPodWithInbox("intruder");
    const entry = await owner.sdk.inboxes.lists.create(owner.inbox, "receive", "block", { entry: "spam@example.com" });
    await owner.sdk.lists.create("send", "allow", { entry: "partner.example" });

    expect(await statusOf(intruder.sdk.inboxes.lists.get(owner.inbox, "receive", "block", "spam@example.com"))).toBe(
      404,
    );
    expect(await statusOf(intruder.sdk.inboxes.lists.list(owner.inbox, "receive", "block"))).toBe(404);
    expect(await statusOf(intruder.sdk.inboxes.lists.delete(owner.inbox, "receive", "block", "spam@example.com"))).toBe(
      404,
    );
    expect(
      await statusOf(intruder.sdk.inboxes.lists.create(owner.inbox, "receive", "allow", { entry: "intruder.example" })),
    ).toBe(404);
    expect(await statusOf(intruder.sdk.lists.get("send", "allow", "partner.example"))).toBe(404);
    expect(await statusOf(intruder.sdk.lists.delete("send", "allow", "partner.example"))).toBe(404);
    expect((await intruder.sdk.lists.list("send", "allow")).entries).toEqual([]);

    expect((await owner.sdk.inboxes.lists.list(owner.inbox, "receive", "block")).entries).toEqual([entry]);
    expect((await owner.sdk.inboxes.lists.list(owner.inbox, "receive", "allow")).entries).toEqual([]);
    expect((await owner.sdk.lists.get("send", "allow", "partner.example")).entry).toBe("partner.example");
  });

  it("are bounded per pod over all its lists: past the bound it is refused LIST_LIMIT_REACHED, others are not", async () => {
    const full = await newPodWithInbox("full");
    const other = await newPodWithInbox("not-full");
    // Concurrent creates count each other: the pod ends with exactly the bound, however they interleave.
    const created = await Promise.allSettled(
      Array.from({ length: ENTRIES_PER_POD + 5 }, (_, index) =>
        index % 2 === 0
          ? full.sdk.lists.create("receive", "block", { entry: `d${index}.example` })
          : full.sdk.inboxes.lists.create(full.inbox, "send", "allow", { entry: `d${index}.example` }),
      ),
    );
    expect(created.filter((result) => result.status === "fulfilled")).toHaveLength(ENTRIES_PER_POD);
    const refused = await full.sdk.lists.create("send", "block", { entry: "one-more.example" }).then(
      () => undefined,
      (caught: unknown) => caught as AgentMailError,
    );
    expect(refused?.statusCode).toBe(409);
    expect(refused?.body).toMatchObject({ error: { type: "conflict_error", details: { code: "LIST_LIMIT_REACHED" } } });
    // An entry already there is still answered; another pod adds its own.
    expect((await full.sdk.lists.create("receive", "block", { entry: "d0.example" })).entry).toBe("d0.example");
    expect((await other.sdk.lists.create("send", "block", { entry: "one-more.example" })).entry).toBe(
      "one-more.example",
    );
  });

  it("are wiped with the pod by test control's reset", async () => {
    const pod = await newPodWithInbox("reset");
    const kept = await newPodWithInbox("kept");
    await pod.sdk.lists.create("receive", "block", { entry: "partner.example" });
    await kept.sdk.lists.create("receive", "block", { entry: "partner.example" });
    expect((await testControlOf(served.server).reset(pod.apiKey)).status).toBeLessThan(300);
    expect((await pod.sdk.lists.list("receive", "block")).entries).toEqual([]);
    expect((await kept.sdk.lists.list("receive", "block")).count).toBe(1);
  });
});
