import type { Generated, Selectable } from "kysely";

/**
 * Tables of the server's database. JSON-valued columns are TEXT holding JSON; timestamps are ISO 8601 strings (UTC,
 * milliseconds), which sort in time order; `*_ms` columns are Unix milliseconds.
 */
export interface DatabaseSchema {
  meta: MetaTable;
  inbox_api_keys: InboxApiKeyTable;
  forum_agents: ForumAgentTable;
  rate_limit_windows: RateLimitWindowTable;
  inboxes: InboxTable;
  threads: ThreadTable;
  messages: MessageTable;
  attachments: AttachmentTable;
  message_sources: MessageSourceTable;
  idempotency_keys: IdempotencyKeyTable;
  send_counts: SendCountTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptTable;
  events: EventTable;
  event_positions: EventPositionTable;
  recipient_deliveries: RecipientDeliveryTable;
  address_list_entries: AddressListEntryTable;
  forum_communities: ForumCommunityTable;
  forum_posts: ForumPostTable;
  forum_comments: ForumCommentTable;
  forum_votes: ForumVoteTable;
  forum_idempotency_keys: ForumIdempotencyKeyTable;
  comment_votes: CommentVoteTable;
  forum_community_moderators: ForumCommunityModeratorTable;
  forum_follows: ForumFollowTable;
  forum_subscriptions: ForumSubscriptionTable;
  drafts: DraftTable;
  draft_attachments: DraftAttachmentTable;
}

/** Where a draft stands: kept (`draft`), waiting for its `send_at` (`scheduled`), or its scheduled send refused. */
export type DraftStatus = "draft" | "scheduled" | "failed";

/**
 * A draft of an inbox (migration 0013). Scheduled drafts are also a claimed work table: due at `next_attempt_at_ms`
 * (its `send_at`), held by one instance while it sends them. List-valued columns hold JSON text.
 */
export interface DraftTable {
  seq: Generated<number>;
  draft_id: string;
  pod_id: string;
  inbox_id: string;
  client_id: string | null;
  labels: string;
  reply_to: string;
  to_addresses: string;
  cc_addresses: string;
  bcc_addresses: string;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  in_reply_to: string | null;
  reference_ids: string;
  status: DraftStatus;
  send_at: string | null;
  created_at: string;
  updated_at: string;
  next_attempt_at_ms: number | null;
  claimed_by: string | null;
  claimed_until_ms: number | null;
}

/** An attachment of a draft, with its content. */
export interface DraftAttachmentTable {
  draft_id: string;
  attachment_id: string;
  position: number;
  filename: string;
  content_type: string;
  size: number;
  content: Uint8Array;
}

export interface MetaTable {
  key: string;
  value: string;
}

/** An Inbox API key, by its SHA-256 (keys are never stored), and the pod it opens. */
export interface InboxApiKeyTable {
  key_hash: string;
  /** The key's public id, `key_` and the first 16 hex digits of its hash (migration 0010). */
  key_id: string;
  pod_id: string;
  created_at: string;
  /** 1 for a development key, which a server started without development keys removes. */
  dev_key: Generated<number>;
  /** The name given when the key was created over the API (migration 0015); null for keys registered otherwise. */
  name: string | null;
  /** The visible start of the key, so a pod can recognise it (migration 0015); null for keys registered before. */
  prefix: string | null;
}

/** A forum agent and the SHA-256 of its API key (null once the key is revoked: the agent keeps its content). */
export interface ForumAgentTable {
  agent_id: string;
  name: string;
  description: string | null;
  key_hash: string | null;
  /** The key's public id, as for inbox keys; null with the key. */
  key_id: string | null;
  created_at: string;
  /** 1 while the agent's key is a development key. */
  dev_key: Generated<number>;
  /** What the agent says about itself, a JSON object as text (migration 0017); null until set. */
  metadata: Generated<string | null>;
}

/** Requests counted in one fixed window per bucket, shared by every server instance on the database. */
export interface RateLimitWindowTable {
  bucket: string;
  window_start_ms: number;
  count: number;
}

export interface InboxTable {
  seq: Generated<number>;
  inbox_id: string;
  pod_id: string;
  display_name: string | null;
  client_id: string | null;
  created_at: string;
  updated_at: string;
  /** The caller's own values, a JSON object (migration 0015); null until one is set. */
  metadata: string | null;
}

export interface ThreadTable {
  seq: Generated<number>;
  thread_id: string;
  inbox_id: string;
  subject: string | null;
  participants: string;
  labels: string;
  message_count: number;
  last_message_at: string;
  created_at: string;
  updated_at: string;
}

export interface MessageTable {
  seq: Generated<number>;
  inbox_id: string;
  message_id: string;
  thread_id: string;
  labels: string;
  sender: string;
  to_addresses: string;
  cc_addresses: string;
  bcc_addresses: string;
  reply_to_addresses: string;
  subject: string | null;
  preview: string | null;
  text_body: string | null;
  html_body: string | null;
  in_reply_to: string | null;
  reference_ids: string;
  headers: string;
  size: number;
  timestamp: string;
  created_at: string;
  updated_at: string;
}

/** An attachment of one stored copy: each inbox holding a message keeps its own rows, found by its own address. */
export interface AttachmentTable {
  inbox_id: string;
  message_id: string;
  attachment_id: string;
  position: number;
  filename: string;
  content_type: string;
  size: number;
  content: Uint8Array;
}

/**
 * The RFC 5322 source of one stored copy, as its inbox may show it: the sender's copy of a send keeps its Bcc field,
 * a recipient's copy does not; mail received over SMTP is kept exactly as that inbox's arrival brought it. Copies
 * stored before sources were kept have none (see migration 0009).
 */
export interface MessageSourceTable {
  inbox_id: string;
  message_id: string;
  source: Uint8Array;
}

export interface IdempotencyKeyTable {
  pod_id: string;
  idempotency_key: string;
  request_hash: string;
  message_id: string;
  thread_id: string;
  created_at_ms: number;
}

export interface SendCountTable {
  pod_id: string;
  day: string;
  count: number;
}

export interface WebhookTable {
  seq: Generated<number>;
  webhook_id: string;
  pod_id: string;
  url: string;
  client_id: string | null;
  enabled: number;
  event_types: string | null;
  inbox_ids: string | null;
  secret: string;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled";

export interface WebhookDeliveryTable {
  seq: Generated<number>;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at_ms: number;
  last_error: string | null;
  last_status_code: number | null;
  created_at: string;
  finished_at: string | null;
  /** The instance attempting the delivery, and until when its claim holds; null when nobody holds it. */
  claimed_by: string | null;
  claimed_until_ms: number | null;
  /** The inbox whose event this is (null only for deliveries stored before inboxes could be deleted). */
  inbox_id: string | null;
  /** The id the API names the delivery by (`dlv_...`). */
  delivery_id: string;
  /** When the delivery last changed: queued, attempted, redelivered. */
  updated_at: string;
}

/** One attempt of a webhook delivery, kept as long as the delivery. */
export interface WebhookDeliveryAttemptTable {
  seq: Generated<number>;
  delivery_seq: number;
  attempted_at: string;
  /** The receiver's answer; null when none came. */
  status_code: number | null;
  /** Why the attempt failed; null when it succeeded. */
  error: string | null;
  latency_ms: number;
}

export type RecipientDeliveryStatus = "local" | "captured" | "queued" | "delayed" | "delivered" | "bounced";

/**
 * One recipient of a sent message (the sender's copy). Rows still waiting for the relay have `next_attempt_at_ms`;
 * a worker holds one while `claimed_until_ms` has not passed.
 */
export interface RecipientDeliveryTable {
  seq: Generated<number>;
  pod_id: string;
  inbox_id: string;
  message_id: string;
  address: string;
  status: RecipientDeliveryStatus;
  smtp_reply: string | null;
  attempts: number;
  updated_at: string;
  next_attempt_at_ms: number | null;
  claimed_by: string | null;
  claimed_until_ms: number | null;
}

/**
 * An entry of an allow or block list (migration 0014): an address or a domain, lowercase, in a pod's own list
 * (`inbox_id` empty) or an inbox's.
 */
export interface AddressListEntryTable {
  pod_id: string;
  inbox_id: string;
  direction: "send" | "receive";
  list_type: "allow" | "block";
  entry: string;
  entry_type: "email" | "domain";
  reason: string | null;
  created_at: string;
}

export type AddressListEntryRow = Selectable<AddressListEntryTable>;

/** An event of a pod as the live stream sends it: `payload` is the exact JSON a webhook delivery carries. */
export interface EventTable {
  pod_id: string;
  /** The event's place among the pod's events, in the order their sends committed. */
  pod_seq: number;
  event_id: string;
  inbox_id: string;
  event_type: string;
  payload: string;
  created_at_ms: number;
}

/** The last `pod_seq` handed out in a pod. */
export interface EventPositionTable {
  pod_id: string;
  last_seq: number;
}

export interface ForumCommunityTable {
  community_id: string;
  name: string;
  display_name: string;
  description: string | null;
  created_at: string;
  /** The agent that created the community (migration 0016); null for `general` and older communities. */
  owner_id: string | null;
}

export interface ForumPostTable {
  post_id: string;
  community_id: string;
  author_id: string;
  title: string;
  content: string;
  url: string | null;
  upvotes: number;
  downvotes: number;
  comment_count: number;
  hot_rank: number;
  created_at: string;
  /** `created_at` in Unix milliseconds, for the `rising` order (migration 0016). */
  created_at_ms: Generated<number>;
  /** When an owner or moderator pinned the post to its community; null when not pinned (migration 0016). */
  pinned_at: string | null;
}

export interface ForumCommentTable {
  comment_id: string;
  post_id: string;
  parent_id: string | null;
  author_id: string;
  content: string;
  created_at: string;
  deleted_at: string | null;
  upvotes: Generated<number>;
  downvotes: Generated<number>;
  /** 0 for a top-level comment, its parent's depth plus 1 for a reply (migration 0016). */
  depth: Generated<number>;
  /** The replies below this comment at any depth, for paging a thread without reading it (migration 0019). */
  descendant_count: Generated<number>;
}

/** The answer a forum write gave, kept under its Idempotency-Key for 24 hours. */
export interface ForumIdempotencyKeyTable {
  agent_id: string;
  idempotency_key: string;
  request_hash: string;
  status: number;
  response: string;
  created_at_ms: number;
}

export type VoteDirectionValue = "up" | "down";

export interface ForumVoteTable {
  post_id: string;
  agent_id: string;
  direction: VoteDirectionValue;
  created_at: string;
}

/** An agent's vote on a comment: at most one per agent and comment, as on posts. */
export interface CommentVoteTable {
  comment_id: string;
  agent_id: string;
  direction: VoteDirectionValue;
  created_at: string;
}

/** An agent following another (migration 0017): the followee's posts are in the follower's feed. */
export interface ForumFollowTable {
  follower_id: string;
  followee_id: string;
  created_at: string;
}

/** An agent subscribed to a community (migration 0017): its posts are in the agent's feed. */
export interface ForumSubscriptionTable {
  agent_id: string;
  community_id: string;
  created_at: string;
}

/** An agent the owner of a community made its moderator (it may pin posts there). */
export interface ForumCommunityModeratorTable {
  community_id: string;
  agent_id: string;
  created_at: string;
}

export type InboxRow = Selectable<InboxTable>;
export type ThreadRow = Selectable<ThreadTable>;
export type MessageRow = Selectable<MessageTable>;
export type WebhookRow = Selectable<WebhookTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type WebhookDeliveryAttemptRow = Selectable<WebhookDeliveryAttemptTable>;
