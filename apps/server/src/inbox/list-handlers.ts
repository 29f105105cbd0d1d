import type { ListEntry } from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import { normalizeAddress } from "../mail/mail-address.ts";
import type { ListScope, ListStore } from "../storage/inbox/list-store.ts";
import type { AddressListEntryRow, InboxRow } from "../storage/schema.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import type { PageTokens } from "./page-token.ts";

export interface ListHandlerDependencies {
  lists: ListStore;
  pageTokens: PageTokens;
  clock: Clock;
  /** The spec's address rule; a domain entry is checked as the domain of an address. */
  isValidAddress(address: string): boolean;
  /** Entries one pod may hold over all its lists and its inboxes' lists. */
  entriesPerPod: number;
  /** The caller's inbox, or a 404. */
  ownInbox(podId: string, inboxId: string): Promise<InboxRow>;
}

type ListHandlers = Pick<
  InboxHandlers,
  | "listListEntries"
  | "createListEntry"
  | "getListEntry"
  | "deleteListEntry"
  | "listInboxListEntries"
  | "createInboxListEntry"
  | "getInboxListEntry"
  | "deleteInboxListEntry"
>;

interface ListPath {
  direction: ListScope["direction"];
  type: ListScope["listType"];
}

export function toListEntry(row: AddressListEntryRow): ListEntry {
  return {
    entry: row.entry,
    organization_id: row.pod_id,
    pod_id: row.pod_id,
    inbox_id: row.inbox_id === "" ? null : row.inbox_id,
    reason: row.reason,
    direction: row.direction,
    list_type: row.list_type,
    entry_type: row.entry_type,
    created_at: row.created_at,
    read_only: false,
  };
}

/** Allow and block lists: the pod's (`/v0/lists/...`) and each inbox's (`/v0/inboxes/{inbox_id}/lists/...`). */
export function createListHandlers(deps: ListHandlerDependencies): ListHandlers {
  const { lists, pageTokens, clock } = deps;

  /** The entry as stored (lowercase) with its type; a 400 for something that is neither an address nor a domain. */
  function parseEntry(entry: string, field: string) {
    const normalized = normalizeAddress(entry);
    const entryType = normalized.includes("@") ? "email" : "domain";
    // A domain follows the address rule's domain part: it is checked as the domain of an address.
    const valid = deps.isValidAddress(entryType === "email" ? normalized : `postmaster@${normalized}`);
    if (!valid || normalized.length > 254) {
      throw new InboxProblem(400, "INVALID_VALUE", `${field}: '${entry}' is neither an e-mail address nor a domain.`, {
        field,
      });
    }
    return { entry: normalized, entryType } as const;
  }

  const scopeOf = (podId: string, inboxId: string | null, path: ListPath): ListScope => ({
    podId,
    inboxId,
    direction: path.direction,
    listType: path.type,
  });

  const notFound = (entry: string) =>
    new InboxProblem(404, "NOT_FOUND", `List entry '${entry}' was not found.`, { field: "entry" });

  async function list(scope: ListScope, query: { limit?: number; page_token?: string }) {
    const limit = withSpecDefault(query.limit, "limit");
    const tokenScope = `lists:${scope.podId}:${scope.inboxId ?? ""}:${scope.direction}:${scope.listType}`;
    // The list is in order of entry, which is unique within it: the cursor's one field is the last entry listed.
    const after = query.page_token === undefined ? undefined : pageTokens.read(tokenScope, query.page_token).createdAt;
    const rows = await lists.listEntries(scope, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const nextPageToken =
      rows.length > limit && last ? pageTokens.issue(tokenScope, { createdAt: last.entry, seq: 0 }) : null;
    return {
      status: 200 as const,
      body: { count: page.length, limit, next_page_token: nextPageToken, entries: page.map(toListEntry) },
    };
  }

  async function create(scope: () => Promise<ListScope>, body: { entry: string; reason?: string }) {
    const { entry, entryType } = parseEntry(body.entry, "entry");
    const result = await lists.createEntry(
      await scope(),
      { entry, entryType, reason: body.reason ?? null, createdAt: isoTimestamp(clock.now()) },
      deps.entriesPerPod,
    );
    if ("limitReached" in result) {
      throw new InboxProblem(
        409,
        "LIST_LIMIT_REACHED",
        `This API key's pod has ${result.limitReached} list entries, the most it may have; delete one before adding another.`,
        { field: "entry" },
      );
    }
    return { status: 200 as const, body: toListEntry("created" in result ? result.created : result.existing) };
  }

  async function get(scope: () => Promise<ListScope>, rawEntry: string) {
    const { entry } = parseEntry(rawEntry, "entry");
    const found = await lists.findEntry(await scope(), entry);
    if (!found) {
      throw notFound(rawEntry);
    }
    return { status: 200 as const, body: toListEntry(found) };
  }

  async function remove(scope: () => Promise<ListScope>, rawEntry: string) {
    const { entry } = parseEntry(rawEntry, "entry");
    if (!(await lists.deleteEntry(await scope(), entry))) {
      throw notFound(rawEntry);
    }
    return { status: 204 as const, body: undefined };
  }

  const podScope = async (podId: string, path: ListPath) => scopeOf(podId, null, path);
  const inboxScope = async (podId: string, path: ListPath & { inbox_id: string }) =>
    scopeOf(podId, (await deps.ownInbox(podId, path.inbox_id)).inbox_id, path);

  // Each handler checks what the request itself carries (the entry) before looking for the inbox, so that a bad
  // entry is the same 400 whether or not the inbox exists.
  return {
    listListEntries: async ({ path, query }, { caller }) => list(await podScope(caller.podId, path), query),
    createListEntry: ({ path, body }, { caller }) => create(() => podScope(caller.podId, path), body),
    getListEntry: ({ path }, { caller }) => get(() => podScope(caller.podId, path), path.entry),
    deleteListEntry: ({ path }, { caller }) => remove(() => podScope(caller.podId, path), path.entry),
    listInboxListEntries: async ({ path, query }, { caller }) => list(await inboxScope(caller.podId, path), query),
    createInboxListEntry: ({ path, body }, { caller }) => create(() => inboxScope(caller.podId, path), body),
    getInboxListEntry: ({ path }, { caller }) => get(() => inboxScope(caller.podId, path), path.entry),
    deleteInboxListEntry: ({ path }, { caller }) => remove(() => inboxScope(caller.podId, path), path.entry),
  };
}
