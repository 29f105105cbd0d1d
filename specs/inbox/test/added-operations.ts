// The reviewed list of the operations the inbox API adds beyond the seed (`DECISIONS.md`: "Inbox service, beyond the
// seed" and "AgentMail compatibility"), grouped by purpose. Every addition is additive: the seed's paths, operations
// and shapes stay as they are (`seed.test.ts` checks that). The tests compare the bundle with this list exactly, so
// a new operation needs a deliberate edit here.

const INBOX = "/v0/inboxes/{inbox_id}";
const MESSAGES = `${INBOX}/messages`;
const MESSAGE = `${MESSAGES}/{message_id}`;
const THREAD = `${INBOX}/threads/{thread_id}`;
const WEBHOOK = "/v0/webhooks/{webhook_id}";

/** `method path operationId` of each added operation, by purpose. */
export const ADDED_OPERATIONS: Record<string, string[]> = {
  // Deleting, updating and searching inboxes (the seed creates, lists and gets them).
  inboxes: [`delete ${INBOX} deleteInbox`, `patch ${INBOX} updateInbox`, "get /v0/inboxes/search searchInboxes"],
  labels: [`patch ${MESSAGE} updateMessage`],
  downloads: [
    `get ${MESSAGE}/attachments/{attachment_id} getAttachment`,
    `get ${MESSAGE}/raw getRawMessage`,
    `get ${THREAD}/attachments/{attachment_id} getThreadAttachment`,
    // The signed link the downloads answer to a request for JSON; it takes no key (the signature is the permission).
    "get /v0/downloads/{token} getDownload",
  ],
  deliveryLog: [
    `get ${WEBHOOK}/deliveries listWebhookDeliveries`,
    `post ${WEBHOOK}/deliveries/{delivery_id}/redeliver redeliverWebhookDelivery`,
  ],
  domains: [
    "get /v0/domains listDomains",
    "post /v0/domains createDomain",
    "get /v0/domains/{domain_id} getDomain",
    "get /v0/domains/{domain_id}/zone-file getDomainZoneFile",
    "post /v0/domains/{domain_id}/verify verifyDomain",
  ],
  // AgentMail's message operations; the seed's send stays at POST .../messages, AgentMail's path is added beside it.
  messages: [
    `post ${MESSAGE}/reply replyToMessage`,
    `post ${MESSAGE}/reply-all replyAllMessage`,
    `post ${MESSAGE}/forward forwardMessage`,
    `post ${MESSAGES}/send sendMessageAtSendPath`,
    `delete ${MESSAGE} deleteMessage`,
    `post ${MESSAGES}/batch-get batchGetMessages`,
    `post ${MESSAGES}/batch-update batchUpdateMessages`,
    `get ${MESSAGES}/search searchMessages`,
  ],
  threads: [
    `patch ${THREAD} updateThread`,
    `delete ${THREAD} deleteThread`,
    `get ${INBOX}/threads/search searchThreads`,
  ],
  drafts: [
    `get ${INBOX}/drafts listDrafts`,
    `post ${INBOX}/drafts createDraft`,
    `get ${INBOX}/drafts/{draft_id} getDraft`,
    `patch ${INBOX}/drafts/{draft_id} updateDraft`,
    `delete ${INBOX}/drafts/{draft_id} deleteDraft`,
    `post ${INBOX}/drafts/{draft_id}/send sendDraft`,
  ],
  // The pod-wide views: every inbox of the caller's pod at once.
  podWide: [
    "get /v0/threads listPodThreads",
    "get /v0/threads/search searchPodThreads",
    "get /v0/threads/{thread_id} getPodThread",
    "get /v0/drafts listPodDrafts",
    "get /v0/drafts/{draft_id} getPodDraft",
  ],
  allowBlockLists: [
    "get /v0/lists/{direction}/{type} listListEntries",
    "post /v0/lists/{direction}/{type} createListEntry",
    "get /v0/lists/{direction}/{type}/{entry} getListEntry",
    "delete /v0/lists/{direction}/{type}/{entry} deleteListEntry",
    `get ${INBOX}/lists/{direction}/{type} listInboxListEntries`,
    `post ${INBOX}/lists/{direction}/{type} createInboxListEntry`,
    `get ${INBOX}/lists/{direction}/{type}/{entry} getInboxListEntry`,
    `delete ${INBOX}/lists/{direction}/{type}/{entry} deleteInboxListEntry`,
  ],
  apiKeys: [
    "get /v0/api-keys listApiKeys",
    "post /v0/api-keys createApiKey",
    "get /v0/api-keys/{api_key_id} getApiKey",
    "delete /v0/api-keys/{api_key_id} deleteApiKey",
    "get /v0/auth/me getAuthIdentity",
  ],
  // AgentMail's partial edit beside the seed's full-replace PUT.
  webhooks: [`patch ${WEBHOOK} editWebhook`],
  events: [
    `get ${INBOX}/events listInboxEvents`,
    `get ${INBOX}/metrics/events getInboxEventMetrics`,
    "get /v0/metrics/events getEventMetrics",
  ],
};

/** Every added operation as `method path operationId`. */
export const ADDED: string[] = Object.values(ADDED_OPERATIONS).flat();

/** The paths the added operations bring (some share a path with the seed, such as Delete Inbox). */
export const ADDED_PATHS: string[] = [...new Set(ADDED.map((entry) => entry.split(" ")[1] ?? ""))];

/** The seed has 13 operations (`seed.test.ts` lists them). */
export const SEED_OPERATION_COUNT = 13;
