import type { CreateWebhookRequest, operations, paths } from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { ApiProblem } from "../http/api-problem.ts";
import type { OperationHandlers, PathOperationId } from "../http/operation-types.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import type { RequestContext } from "../http/service-app.ts";
import { randomBase62, randomLowerAlphanumeric } from "../ids.ts";
import type { InboxRepository } from "../storage/inbox/inbox-repository.ts";
import type { PageRequest, Positioned } from "../storage/inbox/paging.ts";
import type { WebhookSettings } from "../storage/inbox/webhooks.ts";
import { DEFAULT_DOMAIN, normalizeAddress } from "./addresses.ts";
import type { PageTokens } from "./page-token.ts";
import { toPage } from "./page-token.ts";
import type { SendContext } from "./send-message.ts";
import { sendMessage } from "./send-message.ts";
import { generateWebhookSecret } from "./webhooks/signing.ts";

/** The tenant (pod) of an inbox API key. */
export interface InboxPrincipal {
  podId: string;
}

export type InboxHandlers = OperationHandlers<
  operations,
  PathOperationId<paths, operations>,
  RequestContext<InboxPrincipal>
>;

export interface InboxHandlerDependencies {
  repository: InboxRepository;
  /** The spec's address rule, which an address assembled from `username` and `domain` must follow too. */
  isValidAddress(address: string): boolean;
  pageTokens: PageTokens;
  clock: Clock;
  send: Omit<SendContext, "repository" | "clock">;
}

const notFound = (what: string, id: string, field: string) =>
  new ApiProblem(404, "NOT_FOUND", `${what} '${id}' was not found.`, { field });

const webhookSettings = (body: CreateWebhookRequest): WebhookSettings => {
  const url = new URL(body.url);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ApiProblem(400, "INVALID_VALUE", `url: '${body.url}' must be an http or https URL.`, {
      field: "url",
    });
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
  const { repository, pageTokens, clock } = deps;
  const sendContext: SendContext = { repository, clock, ...deps.send };

  /** Runs one newest-first list query and shapes its page, with `next_page_token` bound to this list. */
  async function listPage<T>(
    scope: string,
    query: { limit?: number; page_token?: string },
    fetch: (page: PageRequest) => Promise<Positioned<T>[]>,
  ) {
    const limit = withSpecDefault(query.limit, "limit");
    const after = query.page_token === undefined ? undefined : pageTokens.read(scope, query.page_token);
    const { rows, nextPageToken } = toPage(await fetch({ limit: limit + 1, after }), limit, pageTokens, scope);
    return { count: rows.length, limit, next_page_token: nextPageToken, items: rows.map((row) => row.item) };
  }

  async function ownInbox(podId: string, inboxId: string) {
    const inbox = await repository.findInbox(podId, normalizeAddress(inboxId));
    if (!inbox) {
      throw notFound("Inbox", inboxId, "inbox_id");
    }
    return inbox;
  }

  return {
    async createInbox({ body }, { principal }) {
      const username = body?.username ?? `inbox-${randomLowerAlphanumeric(10)}`;
      const domain = (body?.domain ?? DEFAULT_DOMAIN).toLowerCase();
      const address = `${username}@${domain}`;
      // Each part has its own pattern, but only the whole address can break the length limit; an inbox whose
      // address the rest of the API refuses could never be read, sent from or named in a webhook.
      if (!deps.isValidAddress(address)) {
        throw new ApiProblem(
          400,
          "INVALID_EMAIL",
          `The address '${address}' is not a valid e-mail address; a whole address is at most 254 characters.`,
          { field: body?.username === undefined ? "domain" : "username" },
        );
      }
      const result = await repository.createInbox({
        inboxId: address,
        podId: principal.podId,
        displayName: body?.display_name ?? null,
        clientId: body?.client_id ?? null,
        createdAt: isoTimestamp(clock.now()),
      });
      if ("addressTaken" in result) {
        throw new ApiProblem(409, "ADDRESS_TAKEN", `The address '${address}' is already taken.`, { field: "username" });
      }
      return { status: 200, body: "created" in result ? result.created : result.existing };
    },

    async listInboxes({ query }, { principal }) {
      const { items, ...page } = await listPage(`inboxes:${principal.podId}`, query, (request) =>
        repository.listInboxes(principal.podId, request),
      );
      return { status: 200, body: { ...page, inboxes: items } };
    },

    async getInbox({ path }, { principal }) {
      return { status: 200, body: await ownInbox(principal.podId, path.inbox_id) };
    },

    async sendMessage({ path, headers, body }, { principal }) {
      const inbox = await ownInbox(principal.podId, path.inbox_id);
      const sent = await sendMessage(sendContext, {
        podId: principal.podId,
        inboxId: inbox.inbox_id,
        body,
        idempotencyKey: headers["Idempotency-Key"],
      });
      return { status: 200, body: sent };
    },

    async listMessages({ path, query }, { principal }) {
      const inbox = await ownInbox(principal.podId, path.inbox_id);
      const { items, ...page } = await listPage(`messages:${inbox.inbox_id}`, query, (request) =>
        repository.listMessages(inbox.inbox_id, request),
      );
      return { status: 200, body: { ...page, messages: items } };
    },

    async getMessage({ path }, { principal }) {
      const inbox = await ownInbox(principal.podId, path.inbox_id);
      const message = await repository.findMessage(inbox.inbox_id, path.message_id);
      if (!message) {
        throw notFound("Message", path.message_id, "message_id");
      }
      return { status: 200, body: message };
    },

    async listThreads({ path, query }, { principal }) {
      const inbox = await ownInbox(principal.podId, path.inbox_id);
      const { items, ...page } = await listPage(`threads:${inbox.inbox_id}`, query, (request) =>
        repository.listThreads(inbox.inbox_id, request),
      );
      return { status: 200, body: { ...page, threads: items } };
    },

    async getThread({ path }, { principal }) {
      const inbox = await ownInbox(principal.podId, path.inbox_id);
      const thread = await repository.findThread(inbox.inbox_id, path.thread_id);
      if (!thread) {
        throw notFound("Thread", path.thread_id, "thread_id");
      }
      return { status: 200, body: thread };
    },

    async createWebhook({ body }, { principal }) {
      const result = await repository.createWebhook(
        principal.podId,
        `wh_${randomBase62(16)}`,
        generateWebhookSecret(),
        webhookSettings(body),
        isoTimestamp(clock.now()),
      );
      return { status: 200, body: "created" in result ? result.created : result.existing };
    },

    async listWebhooks({ query }, { principal }) {
      const { items, ...page } = await listPage(`webhooks:${principal.podId}`, query, (request) =>
        repository.listWebhooks(principal.podId, request),
      );
      return { status: 200, body: { ...page, webhooks: items } };
    },

    async getWebhook({ path }, { principal }) {
      const webhook = await repository.findWebhook(principal.podId, path.webhook_id);
      if (!webhook) {
        throw notFound("Webhook", path.webhook_id, "webhook_id");
      }
      return { status: 200, body: webhook };
    },

    async updateWebhook({ path, body }, { principal }) {
      const result = await repository.replaceWebhook(
        principal.podId,
        path.webhook_id,
        webhookSettings(body),
        isoTimestamp(clock.now()),
      );
      if ("missing" in result) {
        throw notFound("Webhook", path.webhook_id, "webhook_id");
      }
      if ("clientIdTaken" in result) {
        throw new ApiProblem(
          409,
          "CLIENT_ID_TAKEN",
          `client_id: '${body.client_id}' already names webhook ${result.clientIdTaken}; client ids are unique per API key.`,
          { field: "client_id" },
        );
      }
      return { status: 200, body: result.replaced };
    },

    async deleteWebhook({ path }, { principal }) {
      if (!(await repository.deleteWebhook(principal.podId, path.webhook_id))) {
        throw notFound("Webhook", path.webhook_id, "webhook_id");
      }
      return { status: 204, body: undefined };
    },
  };
}
