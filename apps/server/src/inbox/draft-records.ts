import type { Draft, DraftItem } from "@pigeonhole/inbox-types";
import type { StoredDraft } from "../storage/inbox/draft-store.ts";

// How stored drafts become the records the Inbox API answers. List-valued columns hold JSON text.

const PREVIEW_LENGTH = 200;

const parseList = (json: string): string[] => JSON.parse(json) as string[];

/** `scheduled` while it waits, `sending` while an instance holds it, `failed` after a refused scheduled send. */
function sendStatusOf({ draft }: StoredDraft): DraftItem["send_status"] {
  if (draft.status === "failed") {
    return "failed";
  }
  if (draft.status === "scheduled") {
    return draft.claimed_by === null ? "scheduled" : "sending";
  }
  return null;
}

export const toDraftItem = (stored: StoredDraft): DraftItem => {
  const { draft } = stored;
  return {
    inbox_id: draft.inbox_id,
    draft_id: draft.draft_id,
    labels: parseList(draft.labels),
    to: parseList(draft.to_addresses),
    cc: parseList(draft.cc_addresses),
    bcc: parseList(draft.bcc_addresses),
    subject: draft.subject,
    preview: draft.text_body === null ? null : draft.text_body.slice(0, PREVIEW_LENGTH),
    attachments: stored.attachments.map(({ attachment_id, filename, content_type, size }) => ({
      attachment_id,
      filename,
      content_type,
      size,
    })),
    in_reply_to: draft.in_reply_to,
    send_status: sendStatusOf(stored),
    send_at: draft.send_at,
    created_at: draft.created_at,
    updated_at: draft.updated_at,
  };
};

export const toDraft = (stored: StoredDraft): Draft => {
  const { draft } = stored;
  return {
    ...toDraftItem(stored),
    client_id: draft.client_id,
    reply_to: parseList(draft.reply_to),
    text: draft.text_body,
    html: draft.html_body,
    references: parseList(draft.reference_ids),
  };
};
