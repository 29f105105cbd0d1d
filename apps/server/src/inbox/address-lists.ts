import { normalizeAddress } from "../mail/mail-address.ts";
import type { ListMatches, ListStore } from "../storage/inbox/list-store.ts";
import { InboxProblem } from "./inbox-errors.ts";

/**
 * The rule of allow and block lists, for one inbox and one direction (`send`: the recipients it sends to; `receive`:
 * the sender of the mail it gets). The pod's lists and the inbox's own apply together: an address is refused when an
 * entry of either block list matches it, whatever the allow lists say (block wins), and, when either allow list has
 * entries, unless an entry of one of them matches it. An entry matches without regard to case: an address entry the
 * same address, a domain entry an address in that domain or any of its subdomains (`example.com` matches
 * `ada@example.com` and `ada@mail.example.com`, not `ada@notexample.com`).
 */

/** The entries that would match an address: itself, its domain and each parent domain of two or more labels. */
export function candidateEntries(address: string): string[] {
  const normalized = normalizeAddress(address);
  const at = normalized.lastIndexOf("@");
  if (at < 0) {
    return [normalized];
  }
  const labels = normalized.slice(at + 1).split(".");
  const domains = labels.slice(0, -1).map((_, index) => labels.slice(index).join("."));
  return [normalized, ...domains];
}

/** Whether the lists, as matched against `address`'s candidate entries, admit it. */
export function admits(address: string | undefined, matches: ListMatches): boolean {
  const candidates = address === undefined ? [] : candidateEntries(address);
  if (candidates.some((entry) => matches.blocked.has(entry))) {
    return false;
  }
  return !matches.hasAllowList || candidates.some((entry) => matches.allowed.has(entry));
}

/** The lists as the send and receive paths consult them. */
export class AddressListRule {
  readonly #lists: ListStore;

  constructor(lists: ListStore) {
    this.#lists = lists;
  }

  /**
   * Refuses a send from the inbox to a recipient its send lists (or its pod's) refuse: a 400 `RECIPIENT_BLOCKED`
   * naming the first such recipient, in the order `to`, `cc`, `bcc`.
   */
  async refuseBlockedRecipients(
    podId: string,
    inboxId: string,
    recipients: { to: readonly string[]; cc: readonly string[]; bcc: readonly string[] },
  ): Promise<void> {
    const fields = (["to", "cc", "bcc"] as const).flatMap((field) =>
      recipients[field].map((address) => ({ field, address: normalizeAddress(address) })),
    );
    const candidates = [...new Set(fields.flatMap(({ address }) => candidateEntries(address)))];
    const matches = await this.#lists.matchEntries(podId, inboxId, "send", candidates);
    const refused = fields.find(({ address }) => !admits(address, matches));
    if (refused) {
      throw new InboxProblem(
        400,
        "RECIPIENT_BLOCKED",
        `${refused.field}: '${refused.address}' is refused by the send lists of inbox '${inboxId}' or its pod.`,
        {
          field: refused.field,
          hint: "List the send allow and block lists (GET /v0/lists/send/{type} and GET /v0/inboxes/{inbox_id}/lists/send/{type}).",
        },
      );
    }
  }

  /**
   * A send from an inbox of this service: refuses it when its send lists refuse a recipient (see
   * refuseBlockedRecipients), and answers the inboxes hosted here among the recipients that refuse the sending inbox,
   * which get no copy.
   */
  async screenSend(
    sender: { podId: string; inboxId: string },
    recipients: { to: readonly string[]; cc: readonly string[]; bcc: readonly string[] },
    localRecipients: readonly string[],
  ): Promise<Set<string>> {
    await this.refuseBlockedRecipients(sender.podId, sender.inboxId, recipients);
    // An inbox sending to itself is no sender its own lists could refuse.
    return this.refusingInboxes(
      sender.inboxId,
      localRecipients.filter((address) => address !== sender.inboxId),
    );
  }

  /**
   * The inboxes among `addresses` (hosted here, any pod) whose receive lists, or their pod's, refuse mail from
   * `sender`: the message's From address, or undefined when it has none, which only inboxes without allow entries
   * admit.
   */
  async refusingInboxes(sender: string | undefined, addresses: readonly string[]): Promise<Set<string>> {
    const inboxes = await this.#lists.podsOfInboxes([...new Set(addresses.map(normalizeAddress))]);
    const candidates = sender === undefined ? [] : candidateEntries(sender);
    const refusing = new Set<string>();
    for (const inbox of inboxes) {
      const matches = await this.#lists.matchEntries(inbox.podId, inbox.inboxId, "receive", candidates);
      if (!admits(sender, matches)) {
        refusing.add(inbox.inboxId);
      }
    }
    return refusing;
  }
}
