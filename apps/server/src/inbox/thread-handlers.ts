import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import type { InboxStore } from "../storage/inbox/inbox-store.ts";
import type { PageRequest, Positioned } from "../storage/inbox/paging.ts";
import type { SummarizedThread } from "../storage/inbox/thread-summaries.ts";
import type { InboxRow } from "../storage/schema.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import { labelChange } from "./message-labels.ts";
import { toMessage, toThreadItem } from "./records.ts";

/** One newest-first page of a list, as `createInboxHandlers` shapes them. */
export type ListPage = <Row, Item>(
  scope: string,
  query: { limit?: number; page_token?: string; labels?: string[] },
  fetch: (page: PageRequest) => Promise<Positioned<Row>[]>,
  toItem: (row: Row) => Item,
) => Promise<{ count: number; limit: number; next_page_token: string | null; items: Item[] }>;

/** What the thread operations share with the rest of the Inbox API's handlers. */
export interface ThreadHandlerDependencies {
  inboxes: InboxStore;
  clock: Clock;
  listPage: ListPage;
  /** The pod's inbox, or a 404. */
  ownInbox(podId: string, inboxId: string): Promise<InboxRow>;
}

export type ThreadOperations = "updateThread" | "deleteThread" | "listPodThreads" | "getPodThread";

const threadNotFound = (threadId: string) =>
  new InboxProblem(404, "NOT_FOUND", `Thread '${threadId}' was not found.`, { field: "thread_id" });

/** Relabelling and deleting an inbox's threads, and the threads of every inbox of a pod. */
export function createThreadHandlers(deps: ThreadHandlerDependencies): Pick<InboxHandlers, ThreadOperations> {
  const { inboxes, clock, listPage, ownInbox } = deps;

  return {
    async updateThread({ path, body }, { caller }) {
      const relabel = labelChange(body);
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const thread = await inboxes.relabelThread(inbox.inbox_id, path.thread_id, relabel, isoTimestamp(clock.now()));
      if (!thread) {
        throw threadNotFound(path.thread_id);
      }
      return { status: 200, body: toThreadItem(thread) };
    },

    async deleteThread({ path }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      if (!(await inboxes.deleteThread(inbox.inbox_id, path.thread_id, isoTimestamp(clock.now())))) {
        throw threadNotFound(path.thread_id);
      }
      return { status: 204, body: undefined };
    },

    async listPodThreads({ query }, { caller }) {
      const { items, ...page } = await listPage(
        `pod-threads:${caller.podId}`,
        query,
        (request) => inboxes.listPodThreads(caller.podId, request),
        (row: SummarizedThread) => toThreadItem(row),
      );
      return { status: 200, body: { ...page, threads: items } };
    },

    async getPodThread({ path }, { caller }) {
      const inboxId = await inboxes.findInboxOfThread(caller.podId, path.thread_id);
      const found = inboxId === null ? null : await inboxes.findThread(inboxId, path.thread_id);
      if (!found) {
        throw threadNotFound(path.thread_id);
      }
      const messages = found.messages.map(({ message, attachments, deliveries }) =>
        toMessage(message, attachments, deliveries),
      );
      return { status: 200, body: { ...toThreadItem(found), count: messages.length, messages } };
    },
  };
}
