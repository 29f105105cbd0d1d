import type { ServerDatabase } from "../database.ts";
import { PreparedQuery } from "../prepared-query.ts";
import type { MessageRow, ThreadRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { perDialect } from "../sql-dialect.ts";

/** What a thread's messages say about it beyond the columns its row keeps, as AgentMail's thread records show it. */
export interface ThreadSummary {
  /** Each sender's address once, oldest first, written as its first message's `from`. */
  senders: string[];
  /** Each `to`, `cc` and `bcc` address once, oldest first. */
  recipients: string[];
  /** The newest message (the last in `created_at`, `seq` order, as Get Thread lists them). */
  last_message_id: string;
  preview: string | null;
  /** The sum of the messages' sizes. */
  size: number;
  /** The newest `timestamp` among the messages labelled `sent` (`received`); null when none is. */
  sent_timestamp: string | null;
  received_timestamp: string | null;
}

/** A thread row with its summary. */
export interface SummarizedThread {
  thread: ThreadRow;
  summary: ThreadSummary;
}

/** The parties of one message (or of a run of messages sharing them), as stored. */
type Parties = Pick<MessageRow, "sender" | "to_addresses" | "cc_addresses" | "bcc_addresses">;

const parseList = (json: string): string[] => JSON.parse(json) as string[];

/** The address of a `From` value, which may carry a display name (`Ada <ada@example.com>`). */
export const senderAddress = (sender: string): string =>
  (/<([^<>]+)>\s*$/.exec(sender)?.[1] ?? sender).trim().toLowerCase();

const threadKey = (inboxId: string, threadId: string): string => `${inboxId}\n${threadId}`;

/**
 * Two statements for a whole page of threads, whatever its length (never one per thread). The first reads, for each
 * thread, its newest message and its newest `sent` and `received` ones, each a probe of `messages_by_thread` from
 * the newest end. The second reads the distinct combinations of sender and recipients, in the order they first
 * appear, with the size of the messages of each; the senders, recipients and size are folded from them.
 */
const summaryQueries = perDialect((dialect) => ({
  newest: new PreparedQuery((db, p: { threadIds: unknown; sent: unknown; received: unknown }) =>
    db
      .selectFrom("threads as t")
      .select(["t.inbox_id", "t.thread_id"])
      .select((eb) => {
        const newestMessage = (labels?: unknown) => {
          const ofThread = eb
            .selectFrom("messages as m")
            .whereRef("m.thread_id", "=", "t.thread_id")
            .whereRef("m.inbox_id", "=", "t.inbox_id");
          return (labels === undefined ? ofThread : ofThread.where(dialect.containsAll("m.labels", labels)))
            .orderBy("m.created_at", "desc")
            .orderBy("m.seq", "desc")
            .limit(1);
        };
        return [
          newestMessage().select("m.message_id").as("last_message_id"),
          newestMessage().select("m.preview").as("preview"),
          newestMessage(p.sent).select("m.timestamp").as("sent_timestamp"),
          newestMessage(p.received).select("m.timestamp").as("received_timestamp"),
        ];
      })
      .where(dialect.inList("t.thread_id", p.threadIds)),
  ),
  parties: new PreparedQuery((db, p: { threadIds: unknown }) =>
    db
      .selectFrom("messages")
      .select(["inbox_id", "thread_id", "sender", "to_addresses", "cc_addresses", "bcc_addresses"])
      .select((eb) => [
        eb.fn.sum<number | string>("size").as("size"),
        eb.fn.min("created_at").as("first_at"),
        eb.fn.min("seq").as("first_seq"),
      ])
      .where(dialect.inList("thread_id", p.threadIds))
      .groupBy(["inbox_id", "thread_id", "sender", "to_addresses", "cc_addresses", "bcc_addresses"])
      .orderBy("first_at")
      .orderBy("first_seq"),
  ),
}));

/** One message as a summary takes it in. */
export interface SummarizedMessage {
  message_id: string;
  /** The `from` value, as stored. */
  sender: string;
  /** Its `to`, `cc` and `bcc` addresses. */
  recipients: readonly string[];
  labels: readonly string[];
  timestamp: string;
  size: number;
  preview: string | null;
}

/** The summary of a thread without messages: what a thread shows when its messages went while it was being read. */
export const emptySummary = (): ThreadSummary => ({
  senders: [],
  recipients: [],
  last_message_id: "",
  preview: null,
  size: 0,
  sent_timestamp: null,
  received_timestamp: null,
});

/** Senders and recipients with those of one more message, each address once, in the order they first appear. */
function withParties(
  summary: Pick<ThreadSummary, "senders" | "recipients">,
  sender: string,
  recipients: readonly string[],
): Pick<ThreadSummary, "senders" | "recipients"> {
  const from = senderAddress(sender);
  const known = from === "" || summary.senders.some((earlier) => senderAddress(earlier) === from);
  return {
    senders: known ? summary.senders : [...summary.senders, sender.trim()],
    recipients: [...new Set([...summary.recipients, ...recipients.map((address) => address.toLowerCase())])],
  };
}

/** The summary once a message newer than all it has seen joins the thread. */
export function withMessage(summary: ThreadSummary, message: SummarizedMessage): ThreadSummary {
  const labelled = (label: string, earlier: string | null) =>
    message.labels.includes(label) ? message.timestamp : earlier;
  return {
    ...withParties(summary, message.sender, message.recipients),
    last_message_id: message.message_id,
    preview: message.preview,
    size: summary.size + message.size,
    sent_timestamp: labelled("sent", summary.sent_timestamp),
    received_timestamp: labelled("received", summary.received_timestamp),
  };
}

const recipientsOf = (row: Parties): string[] => [
  ...parseList(row.to_addresses),
  ...parseList(row.cc_addresses),
  ...parseList(row.bcc_addresses),
];

/** The summary of a thread from all its messages, oldest first (as Get Thread reads them). */
export const summaryOfMessages = (messages: readonly MessageRow[]): ThreadSummary =>
  messages.reduce<ThreadSummary>(
    (summary, row) =>
      withMessage(summary, {
        message_id: row.message_id,
        sender: row.sender,
        recipients: recipientsOf(row),
        labels: parseList(row.labels),
        timestamp: row.timestamp,
        size: row.size,
        preview: row.preview,
      }),
    emptySummary(),
  );

/** The threads with their summaries, in the order given, in two statements whatever their number. */
export async function summarizeThreads(
  db: ServerDatabase,
  dialect: SqlDialect,
  threads: readonly ThreadRow[],
): Promise<SummarizedThread[]> {
  if (threads.length === 0) {
    return [];
  }
  const queries = summaryQueries(dialect);
  const threadIds = dialect.listParam([...new Set(threads.map((thread) => thread.thread_id))]);
  const newest = await queries.newest.rows(db, {
    threadIds,
    sent: dialect.listParam(["sent"]),
    received: dialect.listParam(["received"]),
  });
  const parties = await queries.parties.rows(db, { threadIds });
  const partiesByThread = new Map<string, (Parties & { size: number | string })[]>();
  for (const row of parties) {
    const key = threadKey(row.inbox_id, row.thread_id);
    partiesByThread.set(key, [...(partiesByThread.get(key) ?? []), row]);
  }
  const newestByThread = new Map(newest.map((row) => [threadKey(row.inbox_id, row.thread_id), row]));
  return threads.map((thread) => {
    const key = threadKey(thread.inbox_id, thread.thread_id);
    const found = newestByThread.get(key);
    const groups = partiesByThread.get(key) ?? [];
    if (!found?.last_message_id || groups.length === 0) {
      return { thread, summary: emptySummary() };
    }
    return {
      thread,
      summary: {
        ...groups.reduce((summary, row) => withParties(summary, row.sender, recipientsOf(row)), {
          senders: [] as string[],
          recipients: [] as string[],
        }),
        last_message_id: found.last_message_id,
        preview: found.preview,
        // PostgreSQL answers a sum as a bigint, which its driver hands over as text.
        size: groups.reduce((sum, row) => sum + Number(row.size), 0),
        sent_timestamp: found.sent_timestamp,
        received_timestamp: found.received_timestamp,
      },
    };
  });
}

/**
 * Items of a page that each carry a thread row (positioned or ranked), each with its thread summarized, in the order
 * given: `summarize` answers the whole page at once.
 */
export async function withSummaries<Item extends { row: ThreadRow }>(
  items: readonly Item[],
  summarize: (threads: readonly ThreadRow[]) => Promise<SummarizedThread[]>,
): Promise<(Omit<Item, "row"> & { row: SummarizedThread })[]> {
  const summarized = new Map((await summarize(items.map(({ row }) => row))).map((entry) => [entry.thread, entry]));
  return items.map((item) => ({
    ...item,
    row: summarized.get(item.row) ?? { thread: item.row, summary: emptySummary() },
  }));
}
