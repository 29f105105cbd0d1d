import type { CreateWebhookRequest, operations, paths } from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import type { OperationHandlers, PathOperationId, RequestContext } from "../http/operation-types.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import { randomBase62, randomLowerAlphanumeric } from "../ids.ts";
import type { ApiKeys, InboxCaller } from "../keys/api-keys.ts";
import { normalizeAddress } from "../mail/mail-address.ts";
import type { DraftStore } from "../storage/inbox/draft-store.ts";
import type { EventQueries } from "../storage/inbox/event-queries.ts";
import type { MessageSearchIndex } from "../storage/inbox/full-text-search.ts";
import type { InboxStore } from "../storage/inbox/inbox-store.ts";
import type { ListStore } from "../storage/inbox/list-store.ts";
import type { PageRequest, Positioned } from "../storage/inbox/paging.ts";
import type { WebhookSettings, WebhookStore } from "../storage/inbox/webhook-store.ts";
import { createDomainHandlers } from "./domain-handlers.ts";
import type { InboxPublicOperationId } from "./download-handlers.ts";
import { createDownloadHandlers } from "./download-handlers.ts";
import type { DownloadLinks } from "./download-links.ts";
import { createDraftHandlers } from "./draft-handlers.ts";
import { createEventHandlers } from "./event-handlers.ts";
import type { HostedDomains } from "./hosted-domains.ts";
import { InboxProblem } from "./inbox-errors.ts";
import { createKeyHandlers } from "./key-handlers.ts";
import { createListHandlers } from "./list-handlers.ts";
import { createMessageHandlers } from "./message-handlers.ts";
import { labelChange } from "./message-labels.ts";
import type { PageTokens } from "./page-token.ts";
import { toPage } from "./page-token.ts";
import { toInbox, toMessage, toMessageItem, toThreadItem, toWebhook, toWebhookDelivery } from "./records.ts";
import { replyRecipients, replySendBody } from "./reply-addressing.ts";
import { createSearchHandlers } from "./search-handlers.ts";
import type { SendContext } from "./send-message.ts";
import { sendMessage } from "./send-message.ts";
import { createThreadHandlers } from "./thread-handlers.ts";
import { createUpdateHandlers } from "./update-handlers.ts";
import { generateWebhookSecret } from "./webhooks/signing.ts";
import { webhookUrlProblem } from "./webhooks/webhook-url.ts";

export type InboxHandlers = OperationHandlers<
  operations,
  Exclude<PathOperationId<paths, operations>, InboxPublicOperationId>,
  RequestContext<InboxCaller>
>;

export interface InboxHandlerDependencies {
  inboxes: InboxStore;
  webhooks: WebhookStore;
  /** Allow and block lists (see list-handlers.ts). */
  lists: ListStore;
  /** Drafts (see draft-handlers.ts). */
  drafts: DraftStore;
  /** Ranked search of inboxes, messages and threads (see search-handlers.ts). */
  search: MessageSearchIndex;
  /** The spec's address rule, which an address assembled from `username` and `domain` must follow too. */
  isValidAddress(address: string): boolean;
  /** The domains inboxes are created in and send from; the first is the default of Create Inbox. */
  domains: HostedDomains;
  pageTokens: PageTokens;
  clock: Clock;
  send: Omit<SendContext, "clock">;
  /** Webhooks one pod may have (`ServerOptions.webhooksPerPod`). */
  webhooksPerPod: number;
  /** Allow and block list entries one pod may have (`ServerOptions.listEntriesPerPod`). */
  listEntriesPerPod: number;
  /** Drafts one pod may hold (`ServerOptions.draftsPerPod`). */
  draftsPerPod: number;
  /** Signs the links downloads answer to a request for JSON (see download-links.ts). */
  links: DownloadLinks;
  /** The pods' own keys (see key-handlers.ts). */
  apiKeys: ApiKeys;
  /** An inbox's events and counts of events (see event-handlers.ts). */
  eventQueries: EventQueries;
}

const notFound = (what: string, id: string, field: string) =>
  new InboxProblem(404, "NOT_FOUND", `${what} '${id}' was not found.`, { field });

const webhookSettings = (body: CreateWebhookRequest): WebhookSettings => {
  const problem = webhookUrlProblem(body.url);
  if (problem) {
    throw new InboxProblem(400, problem.code, `url: '${body.url}' ${problem.reason}.`, { field: "url" });
  }
  return {
    url: body.url,
    clientId: body.client_id ?? null,
    enabled: body.enabled ?? true,
    eventTypes: body.event_types ?? null,
    inboxIds: body.inbox_ids?.map(normalizeAddress) ?? null,
  };
};

export function createInboxHandlers(deps: InboxHandlerDependencies): InboxHandlers {
  const { inboxes, webhooks, pageTokens, clock } = deps;
  const sendContext: SendContext = { clock, ...deps.send };

  /** Runs one newest-first list query and shapes its page, with `next_page_token` bound to this list. */
  async function listPage<Row, Item>(
    scope: string,
    query: { limit?: number; page_token?: string; labels?: string[] },
    fetch: (page: PageRequest) => Promise<Positioned<Row>[]>,
    toItem: (row: Row) => Item,
  ) {
    const limit = withSpecDefault(query.limit, "limit");
    const after = query.page_token === undefined ? undefined : pageTokens.read(scope, query.page_token);
    const { rows, nextPageToken } = toPage(
      await fetch({ limit: limit + 1, after, labels: query.labels }),
      limit,
      pageTokens,
      scope,
    );
    return { count: rows.length, limit, next_page_token: nextPageToken, items: rows.map(({ row }) => toItem(row)) };
  }

  async function ownInbox(podId: string, inboxId: string) {
    const inbox = await inboxes.findInbox(podId, normalizeAddress(inboxId));
    if (!inbox) {
      throw notFound("Inbox", inboxId, "inbox_id");
    }
    return inbox;
  }

  /** An inbox outside the hosted domains (created before the server stopped hosting its domain) reads, never sends. */
  function refuseUnhostedSender(inboxId: string): void {
    if (!deps.domains.hostsAddress(inboxId)) {
      throw new InboxProblem(
        400,
        "DOMAIN_NOT_HOSTED",
        `inbox_id: '${inboxId}' is not in a domain this server hosts, so it cannot send.`,
        {
          field: "inbox_id",
          hint: "List Domains (GET /v0/domains) names the hosted domains; send from an inbox in one.",
        },
      );
    }
  }

  async function ownWebhook(podId: string, webhookId: string) {
    const webhook = await webhooks.findWebhook(podId, webhookId);
    if (!webhook) {
      throw notFound("Webhook", webhookId, "webhook_id");
    }
    return webhook;
  }

  async function ownMessage(podId: string, inboxId: string, messageId: string) {
    const inbox = await ownInbox(podId, inboxId);
    const found = await inboxes.findMessage(inbox.inbox_id, messageId);
    if (!found) {
      throw notFound("Message", messageId, "message_id");
    }
    return { inbox, found };
  }

  return {
    ...createListHandlers({
      lists: deps.lists,
      pageTokens,
      clock,
      isValidAddress: deps.isValidAddress,
      ownInbox,
      entriesPerPod: deps.listEntriesPerPod,
    }),
    ...createMessageHandlers({ inboxes, clock, sendContext, ownInbox, ownMessage, refuseUnhostedSender }),
    ...createThreadHandlers({ inboxes, clock, listPage, ownInbox }),
    ...createDownloadHandlers({ inboxes, clock, links: deps.links, ownInbox, ownMessage }),
    ...createSearchHandlers({
      search: deps.search,
      pageTokens,
      ownInbox,
      summarizeThreads: (threads) => inboxes.summarizeThreads(threads),
    }),
    ...createDraftHandlers({
      drafts: deps.drafts,
      inboxes,
      domains: deps.domains,
      pageTokens,
      clock,
      sendContext,
      draftsPerPod: deps.draftsPerPod,
    }),
    ...createKeyHandlers({ apiKeys: deps.apiKeys, pageTokens }),
    ...createDomainHandlers({ domains: deps.domains }),
    ...createEventHandlers({ eventQueries: deps.eventQueries, pageTokens, clock, ownInbox }),
    ...createUpdateHandlers({ inboxes, webhooks, clock }),
    async createInbox({ body }, { caller }) {
      const username = body?.username ?? `inbox-${randomLowerAlphanumeric(10)}`;
      const domain = (body?.domain ?? deps.domains.defaultDomain).toLowerCase();
      // Another domain's addresses belong to someone else: an inbox there would catch mail meant for them.
      if (!deps.domains.hosts(domain)) {
        throw new InboxProblem(
          400,
          "DOMAIN_NOT_HOSTED",
          `domain: '${domain}' is not a domain this server hosts; List Domains names them.`,
          { field: "domain", hint: `Hosted domains: ${deps.domains.all.map((hosted) => hosted.domain).join(", ")}.` },
        );
      }
      const address = `${username}@${domain}`;
      // Each part has its own pattern, but only the whole address can break the length limit; an inbox whose
      // address the rest of the API refuses could never be read, sent from or named in a webhook.
      if (!deps.isValidAddress(address)) {
        throw new InboxProblem(
          400,
          "INVALID_EMAIL",
          `The address '${address}' is not a valid e-mail address; a whole address is at most 254 characters.`,
          { field: body?.username === undefined ? "domain" : "username" },
        );
      }
      const result = await inboxes.createInbox({
        inboxId: address,
        podId: caller.podId,
        displayName: body?.display_name ?? null,
        clientId: body?.client_id ?? null,
        createdAt: isoTimestamp(clock.now()),
      });
      if ("addressTaken" in result) {
        throw new InboxProblem(409, "ADDRESS_TAKEN", `The address '${address}' is already taken.`, {
          field: "username",
        });
      }
      return { status: 200, body: toInbox("created" in result ? result.created : result.existing) };
    },

    async listInboxes({ query }, { caller }) {
      const { items, ...page } = await listPage(
        `inboxes:${caller.podId}`,
        query,
        (request) => inboxes.listInboxes(caller.podId, request),
        toInbox,
      );
      return { status: 200, body: { ...page, inboxes: items } };
    },

    async getInbox({ path }, { caller }) {
      return { status: 200, body: toInbox(await ownInbox(caller.podId, path.inbox_id)) };
    },

    async deleteInbox({ path }, { caller }) {
      if (!(await inboxes.deleteInbox(caller.podId, normalizeAddress(path.inbox_id), isoTimestamp(clock.now())))) {
        throw notFound("Inbox", path.inbox_id, "inbox_id");
      }
      return { status: 204, body: undefined };
    },

    async sendMessage({ path, headers, body }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      refuseUnhostedSender(inbox.inbox_id);
      const sent = await sendMessage(sendContext, {
        podId: caller.podId,
        inboxId: inbox.inbox_id,
        displayName: inbox.display_name,
        body,
        idempotencyKey: headers["Idempotency-Key"],
      });
      return { status: 200, body: sent };
    },

    async listMessages({ path, query }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const { items, ...page } = await listPage(
        `messages:${inbox.inbox_id}`,
        query,
        (request) => inboxes.listMessages(inbox.inbox_id, request),
        ({ message, attachments }) => toMessageItem(message, attachments),
      );
      return { status: 200, body: { ...page, messages: items } };
    },

    async getMessage({ path }, { caller }) {
      const { found } = await ownMessage(caller.podId, path.inbox_id, path.message_id);
      return { status: 200, body: toMessage(found.message, found.attachments, found.deliveries) };
    },

    async updateMessage({ path, body }, { caller }) {
      const relabel = labelChange(body);
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const updated = await inboxes.relabelMessage(inbox.inbox_id, path.message_id, relabel, isoTimestamp(clock.now()));
      if (!updated) {
        throw notFound("Message", path.message_id, "message_id");
      }
      return { status: 200, body: toMessage(updated.message, updated.attachments, updated.deliveries) };
    },

    async replyToMessage({ path, headers, body }, { caller }) {
      const { inbox, found } = await ownMessage(caller.podId, path.inbox_id, path.message_id);
      refuseUnhostedSender(inbox.inbox_id);
      const message = toMessage(found.message, found.attachments, found.deliveries);
      const recipients = replyRecipients(inbox.inbox_id, message, body.reply_all ?? false);
      if (recipients.to.length === 0) {
        throw new InboxProblem(
          400,
          "INVALID_VALUE",
          `Message '${message.message_id}' has no one to reply to but this inbox.`,
          { field: "message_id" },
        );
      }
      const sent = await sendMessage(sendContext, {
        podId: caller.podId,
        inboxId: inbox.inbox_id,
        displayName: inbox.display_name,
        body: replySendBody(message, body, recipients),
        idempotencyKey: headers["Idempotency-Key"],
        fingerprint: { inbox_id: inbox.inbox_id, reply_to: message.message_id, body },
      });
      return { status: 200, body: sent };
    },

    async listThreads({ path, query }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const { items, ...page } = await listPage(
        `threads:${inbox.inbox_id}`,
        query,
        (request) => inboxes.listThreads(inbox.inbox_id, request),
        toThreadItem,
      );
      return { status: 200, body: { ...page, threads: items } };
    },

    async getThread({ path }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const found = await inboxes.findThread(inbox.inbox_id, path.thread_id);
      if (!found) {
        throw notFound("Thread", path.thread_id, "thread_id");
      }
      const messages = found.messages.map(({ message, attachments, deliveries }) =>
        toMessage(message, attachments, deliveries),
      );
      return { status: 200, body: { ...toThreadItem(found), count: messages.length, messages } };
    },

    async createWebhook({ body }, { caller }) {
      const result = await webhooks.createWebhook(
        caller.podId,
        `wh_${randomBase62(16)}`,
        generateWebhookSecret(),
        webhookSettings(body),
        isoTimestamp(clock.now()),
        deps.webhooksPerPod,
      );
      if ("limitReached" in result) {
        throw new InboxProblem(
          409,
          "WEBHOOK_LIMIT_REACHED",
          `This API key's pod has ${result.limitReached} webhooks, the most it may have; delete one before creating another.`,
          { field: null },
        );
      }
      return { status: 200, body: toWebhook("created" in result ? result.created : result.existing) };
    },

    async listWebhooks({ query }, { caller }) {
      const { items, ...page } = await listPage(
        `webhooks:${caller.podId}`,
        query,
        (request) => webhooks.listWebhooks(caller.podId, request),
        toWebhook,
      );
      return { status: 200, body: { ...page, webhooks: items } };
    },

    async getWebhook({ path }, { caller }) {
      return { status: 200, body: toWebhook(await ownWebhook(caller.podId, path.webhook_id)) };
    },

    async updateWebhook({ path, body }, { caller }) {
      const result = await webhooks.replaceWebhook(
        caller.podId,
        path.webhook_id,
        webhookSettings(body),
        isoTimestamp(clock.now()),
      );
      if ("missing" in result) {
        throw notFound("Webhook", path.webhook_id, "webhook_id");
      }
      if ("clientIdTaken" in result) {
        throw new InboxProblem(
          409,
          "CLIENT_ID_TAKEN",
          `client_id: '${body.client_id}' already names webhook ${result.clientIdTaken}; client ids are unique per API key.`,
          { field: "client_id" },
        );
      }
      return { status: 200, body: toWebhook(result.replaced) };
    },

    async deleteWebhook({ path }, { caller }) {
      if (!(await webhooks.deleteWebhook(caller.podId, path.webhook_id))) {
        throw notFound("Webhook", path.webhook_id, "webhook_id");
      }
      return { status: 204, body: undefined };
    },

    async listDomains({ query }) {
      const { items, ...page } = await listPage(
        "domains",
        query,
        async ({ limit, after }) => {
          // The domains are the server's configuration, listed in its order: a position is an index into it.
          const start = after === undefined ? 0 : after.seq + 1;
          return deps.domains.all
            .slice(start, start + limit)
            .map((row, index) => ({ row, position: { createdAt: "", seq: start + index } }));
        },
        (domain) => domain,
      );
      return { status: 200, body: { ...page, domains: items } };
    },

    async getDomain({ path }) {
      const domain = deps.domains.find(path.domain_id);
      if (!domain) {
        throw notFound("Domain", path.domain_id, "domain_id");
      }
      return { status: 200, body: domain };
    },

    async listWebhookDeliveries({ path, query }, { caller }) {
      const webhook = await ownWebhook(caller.podId, path.webhook_id);
      const filter = { status: query.status, eventType: query.event_type };
      const { items, ...page } = await listPage(
        `deliveries:${webhook.webhook_id}`,
        query,
        (request) => webhooks.listDeliveries(webhook.webhook_id, filter, request),
        toWebhookDelivery,
      );
      return { status: 200, body: { ...page, deliveries: items } };
    },

    async redeliverWebhookDelivery({ path }, { caller }) {
      const webhook = await ownWebhook(caller.podId, path.webhook_id);
      const now = clock.now();
      const queued = await webhooks.redeliver(webhook.webhook_id, path.delivery_id, now, isoTimestamp(now));
      if (!queued) {
        throw notFound("Delivery", path.delivery_id, "delivery_id");
      }
      return { status: 202, body: toWebhookDelivery(queued) };
    },
  };
}
