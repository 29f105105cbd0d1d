import type {
  CreateDraftRequest,
  DraftAddressList,
  Message,
  SendAttachment,
  UpdateDraftRequest,
} from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import { randomBase62 } from "../ids.ts";
import { normalizeAddress } from "../mail/mail-address.ts";
import type {
  DraftAttachmentContent,
  DraftChange,
  DraftColumns,
  DraftScope,
  DraftStore,
  StoredDraft,
} from "../storage/inbox/draft-store.ts";
import type { InboxStore } from "../storage/inbox/inbox-store.ts";
import type { PageRequest, Positioned } from "../storage/inbox/paging.ts";
import { toDraft, toDraftItem } from "./draft-records.ts";
import { sendStoredDraft } from "./draft-sending.ts";
import type { HostedDomains } from "./hosted-domains.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import { labelChange, SYSTEM_LABELS } from "./message-labels.ts";
import type { PageTokens } from "./page-token.ts";
import { toPage } from "./page-token.ts";
import { toMessage } from "./records.ts";
import { replyRecipients, replySubject } from "./reply-addressing.ts";
import { requestInstant } from "./request-instant.ts";
import { MAX_ATTACHMENT_BYTES, MAX_RECIPIENTS } from "./send-draft.ts";
import type { SendContext } from "./send-message.ts";

export interface DraftHandlerDependencies {
  drafts: DraftStore;
  inboxes: InboxStore;
  domains: HostedDomains;
  pageTokens: PageTokens;
  clock: Clock;
  sendContext: SendContext;
  /** Drafts one pod may hold (`ServerOptions.draftsPerPod`). */
  draftsPerPod: number;
}

type DraftOperation =
  | "createDraft"
  | "listDrafts"
  | "getDraft"
  | "updateDraft"
  | "deleteDraft"
  | "sendDraft"
  | "listPodDrafts"
  | "getPodDraft";

/** Attachments one draft holds at most, as Send Message takes at most. */
const MAX_ATTACHMENTS = 20;
/** How far in the past a `send_at` may be (a clock a little behind the server's): it sends at once. */
const SEND_AT_PAST_MS = 5 * 60 * 1000;
/** How far ahead a draft may be scheduled. */
const SEND_AT_AHEAD_MS = 365 * 24 * 60 * 60 * 1000;

const notFound = (what: string, id: string, field: string) =>
  new InboxProblem(404, "NOT_FOUND", `${what} '${id}' was not found.`, { field });

const addressesOf = (value: DraftAddressList | null | undefined): string[] =>
  value === undefined || value === null ? [] : typeof value === "string" ? [value] : [...value];

/** The Inbox API's drafts: an inbox's and the pod's, created, changed, deleted, sent now or at their `send_at`. */
export function createDraftHandlers(deps: DraftHandlerDependencies): Pick<InboxHandlers, DraftOperation> {
  const { drafts, inboxes, clock } = deps;
  const sending = { drafts, inboxes, send: deps.sendContext };

  async function ownInbox(podId: string, inboxId: string) {
    const inbox = await inboxes.findInbox(podId, normalizeAddress(inboxId));
    if (!inbox) {
      throw notFound("Inbox", inboxId, "inbox_id");
    }
    return inbox;
  }

  async function ownDraft(scope: DraftScope, draftId: string) {
    const stored = await drafts.findDraft(scope, draftId);
    if (!stored) {
      throw notFound("Draft", draftId, "draft_id");
    }
    return stored;
  }

  async function listPage(
    scope: DraftScope,
    query: { limit?: number; page_token?: string; labels?: string[] },
  ): Promise<{
    count: number;
    limit: number;
    next_page_token: string | null;
    drafts: ReturnType<typeof toDraftItem>[];
  }> {
    const tokenScope = `drafts:${scope.inboxId ?? `pod:${scope.podId}`}`;
    const limit = withSpecDefault(query.limit, "limit");
    const after = query.page_token === undefined ? undefined : deps.pageTokens.read(tokenScope, query.page_token);
    const request: PageRequest = { limit: limit + 1, after, labels: query.labels };
    const fetched: Positioned<StoredDraft>[] = await drafts.listDrafts(scope, request);
    const { rows, nextPageToken } = toPage(fetched, limit, deps.pageTokens, tokenScope);
    return {
      count: rows.length,
      limit,
      next_page_token: nextPageToken,
      drafts: rows.map(({ row }) => toDraftItem(row)),
    };
  }

  /** Checks a `send_at` against the bounds and answers the draft's schedule columns. */
  function schedule(sendAt: string | null) {
    if (sendAt === null) {
      return { status: "draft" as const, send_at: null, next_attempt_at_ms: null };
    }
    const at = requestInstant(sendAt, "send_at");
    const now = clock.now();
    if (at < now - SEND_AT_PAST_MS || at > now + SEND_AT_AHEAD_MS) {
      throw new InboxProblem(
        400,
        "INVALID_VALUE",
        `send_at: '${sendAt}' must be at most 5 minutes in the past and at most 365 days ahead.`,
        { field: "send_at" },
      );
    }
    return { status: "scheduled" as const, send_at: isoTimestamp(at), next_attempt_at_ms: at };
  }

  return {
    async createDraft({ path, body }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      refuseSystemLabels("labels", body.labels ?? []);
      const addressing = await draftAddressing(
        body,
        async (messageId) => {
          const found = await inboxes.findMessage(inbox.inbox_id, messageId);
          if (!found) {
            throw notFound("Message", messageId, "in_reply_to");
          }
          return toMessage(found.message, found.attachments, found.deliveries);
        },
        inbox.inbox_id,
      );
      const attachments = decodeAttachments(body.attachments ?? [], "attachments", 0, 0);
      const now = isoTimestamp(clock.now());
      const result = await drafts.createDraft(
        {
          draft_id: `drf_${randomBase62(16)}`,
          pod_id: caller.podId,
          inbox_id: inbox.inbox_id,
          client_id: body.client_id ?? null,
          labels: JSON.stringify([...new Set(body.labels ?? [])]),
          reply_to: JSON.stringify(addressesOf(body.reply_to)),
          to_addresses: JSON.stringify(addressing.to),
          cc_addresses: JSON.stringify(addressing.cc),
          bcc_addresses: JSON.stringify(addressing.bcc),
          subject: addressing.subject,
          text_body: body.text ?? null,
          html_body: body.html ?? null,
          in_reply_to: addressing.inReplyTo,
          reference_ids: JSON.stringify(addressing.references),
          ...schedule(body.send_at ?? null),
          created_at: now,
          updated_at: now,
        },
        attachments,
        deps.draftsPerPod,
      );
      if ("limitReached" in result) {
        throw new InboxProblem(
          409,
          "DRAFT_LIMIT_REACHED",
          `This API key's pod has ${result.limitReached} drafts, the most it may hold; send or delete one before creating another.`,
          { field: null },
        );
      }
      return { status: 200, body: toDraft("created" in result ? result.created : result.existing) };
    },

    async listDrafts({ path, query }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      return { status: 200, body: await listPage({ podId: caller.podId, inboxId: inbox.inbox_id }, query) };
    },

    async getDraft({ path }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      return {
        status: 200,
        body: toDraft(await ownDraft({ podId: caller.podId, inboxId: inbox.inbox_id }, path.draft_id)),
      };
    },

    async updateDraft({ path, body }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const now = isoTimestamp(clock.now());
      // The body is judged once the draft is found: a draft that is not there is a 404, whatever the body says.
      const updated = await drafts.updateDraft(
        { podId: caller.podId, inboxId: inbox.inbox_id },
        path.draft_id,
        (current) =>
          draftChange(
            body,
            current,
            labelChange({ add_labels: body.add_labels, remove_labels: body.remove_labels }),
            body.send_at === undefined ? {} : schedule(body.send_at),
            now,
          ),
      );
      if (!updated) {
        throw notFound("Draft", path.draft_id, "draft_id");
      }
      return { status: 200, body: toDraft(updated) };
    },

    async deleteDraft({ path }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      if (!(await drafts.deleteDraft({ podId: caller.podId, inboxId: inbox.inbox_id }, path.draft_id))) {
        throw notFound("Draft", path.draft_id, "draft_id");
      }
      return { status: 204, body: undefined };
    },

    async sendDraft({ path, body }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const stored = await ownDraft({ podId: caller.podId, inboxId: inbox.inbox_id }, path.draft_id);
      const relabel = labelChange({ add_labels: body?.add_labels, remove_labels: body?.remove_labels });
      return { status: 200, body: await sendStoredDraft(sending, stored, relabel) };
    },

    async listPodDrafts({ query }, { caller }) {
      return { status: 200, body: await listPage({ podId: caller.podId }, query) };
    },

    async getPodDraft({ path }, { caller }) {
      return { status: 200, body: toDraft(await ownDraft({ podId: caller.podId }, path.draft_id)) };
    },
  };
}

function refuseSystemLabels(field: string, labels: readonly string[]): void {
  const system = labels.find((label) => SYSTEM_LABELS.has(label));
  if (system !== undefined) {
    throw new InboxProblem(400, "SYSTEM_LABEL", `${field}: '${system}' is a system label and cannot be set.`, {
      field,
    });
  }
}

/** Who a new draft goes to, its subject and, for a reply, its threading: from the body, or from the message answered. */
async function draftAddressing(
  body: CreateDraftRequest,
  findMessage: (messageId: string) => Promise<Message>,
  inboxId: string,
) {
  const given = { to: addressesOf(body.to), cc: addressesOf(body.cc), bcc: addressesOf(body.bcc) };
  if (body.in_reply_to === undefined) {
    if (body.reply_all !== undefined) {
      throw new InboxProblem(400, "INVALID_VALUE", "reply_all is only for a reply: give in_reply_to too.", {
        field: "reply_all",
      });
    }
    checkRecipientCount(given);
    return { ...given, subject: body.subject ?? null, inReplyTo: null, references: [] as string[] };
  }
  const replyAll = body.reply_all ?? false;
  if (replyAll && (body.to !== undefined || body.cc !== undefined || body.bcc !== undefined)) {
    throw new InboxProblem(
      400,
      "INVALID_VALUE",
      "A reply_all draft takes its recipients from the message: leave out to, cc and bcc.",
      {
        field: body.to !== undefined ? "to" : body.cc !== undefined ? "cc" : "bcc",
      },
    );
  }
  const message = await findMessage(body.in_reply_to);
  const derived = replyRecipients(inboxId, message, replyAll);
  const recipients =
    body.to === undefined && !replyAll
      ? { to: derived.to, cc: given.cc, bcc: given.bcc }
      : replyAll
        ? { ...derived, bcc: [] }
        : given;
  checkRecipientCount(recipients);
  return {
    ...recipients,
    subject: body.subject ?? replySubject(message.subject),
    inReplyTo: message.message_id,
    references: [...message.references.filter((id) => id !== message.message_id), message.message_id],
  };
}

function checkRecipientCount({ to, cc, bcc }: { to: string[]; cc: string[]; bcc: string[] }): void {
  const count = to.length + cc.length + bcc.length;
  if (count > MAX_RECIPIENTS) {
    throw new InboxProblem(
      400,
      "TOO_MANY_RECIPIENTS",
      `The draft has ${count} recipients over to, cc and bcc; at most ${MAX_RECIPIENTS} are allowed.`,
      { field: bcc.length > 0 ? "bcc" : cc.length > 0 ? "cc" : "to" },
    );
  }
}

/** Decodes attachments to add to a draft that holds `heldCount` of `heldBytes` already, within the draft's bounds. */
function decodeAttachments(
  attachments: readonly SendAttachment[],
  field: string,
  heldCount: number,
  heldBytes: number,
): DraftAttachmentContent[] {
  if (heldCount + attachments.length > MAX_ATTACHMENTS) {
    throw new InboxProblem(
      400,
      "TOO_LONG",
      `The draft would have ${heldCount + attachments.length} attachments; at most ${MAX_ATTACHMENTS} are allowed.`,
      { field },
    );
  }
  let total = heldBytes;
  return attachments.map((attachment) => {
    const content = Buffer.from(attachment.content, "base64");
    total += content.length;
    if (total > MAX_ATTACHMENT_BYTES) {
      throw new InboxProblem(
        413,
        "PAYLOAD_TOO_LARGE",
        "The draft's decoded attachments would be larger than 10 MiB in all.",
        {
          field,
        },
      );
    }
    return {
      attachment_id: `att_${randomBase62(16)}`,
      filename: attachment.filename,
      content_type: attachment.content_type ?? "application/octet-stream",
      size: content.length,
      content,
    };
  });
}

/** What an Update Draft body does to the draft as it stands. */
function draftChange(
  body: UpdateDraftRequest,
  current: StoredDraft,
  relabel: (labels: string[]) => string[],
  scheduled: Pick<DraftColumns, "status" | "send_at" | "next_attempt_at_ms">,
  now: string,
): DraftChange {
  const { draft, attachments } = current;
  const list = (value: DraftAddressList | null | undefined, column: string) =>
    value === undefined ? (JSON.parse(column) as string[]) : addressesOf(value);
  const recipients = {
    to: list(body.to, draft.to_addresses),
    cc: list(body.cc, draft.cc_addresses),
    bcc: list(body.bcc, draft.bcc_addresses),
  };
  checkRecipientCount(recipients);
  const removeIds = [...new Set(body.remove_attachments ?? [])];
  const unknown = removeIds.find((id) => !attachments.some((attachment) => attachment.attachment_id === id));
  if (unknown !== undefined) {
    throw new InboxProblem(400, "INVALID_VALUE", `remove_attachments: the draft has no attachment '${unknown}'.`, {
      field: "remove_attachments",
    });
  }
  const kept = attachments.filter((attachment) => !removeIds.includes(attachment.attachment_id));
  const added = decodeAttachments(
    body.add_attachments ?? [],
    "add_attachments",
    kept.length,
    kept.reduce((sum, attachment) => sum + attachment.size, 0),
  );
  return {
    columns: {
      to_addresses: JSON.stringify(recipients.to),
      cc_addresses: JSON.stringify(recipients.cc),
      bcc_addresses: JSON.stringify(recipients.bcc),
      ...(body.reply_to === undefined ? {} : { reply_to: JSON.stringify(addressesOf(body.reply_to)) }),
      ...(body.subject === undefined ? {} : { subject: body.subject }),
      ...(body.text === undefined ? {} : { text_body: body.text }),
      ...(body.html === undefined ? {} : { html_body: body.html }),
      labels: JSON.stringify(relabel(JSON.parse(draft.labels) as string[])),
      // A new schedule is a new claim: whoever held the old one lets it go.
      ...(body.send_at === undefined ? {} : { ...scheduled, claimed_by: null, claimed_until_ms: null }),
      updated_at: now,
    },
    removeAttachmentIds: removeIds,
    addAttachments: added,
  };
}
