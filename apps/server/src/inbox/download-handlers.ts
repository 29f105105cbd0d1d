import type { operations } from "@pigeonhole/inbox-types";
import { create as contentDisposition } from "content-disposition";
import { format as formatMediaType, parse as parseMediaType } from "content-type";
import type { Clock } from "../clock.ts";
import type { OperationHandlers, RequestContext } from "../http/operation-types.ts";
import type { InboxCaller } from "../keys/api-keys.ts";
import type { AttachmentContent, InboxStore, MessageWithAttachments } from "../storage/inbox/inbox-store.ts";
import type { InboxRow } from "../storage/schema.ts";
import type { DownloadLinks, DownloadRequest, DownloadTarget } from "./download-links.ts";
import { downloadUrl, wantsJsonLink } from "./download-links.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import { buildMessageSource } from "./message-source.ts";
import { toMessage } from "./records.ts";

/** What the downloads share with the rest of the Inbox API's handlers. */
export interface DownloadHandlerDependencies {
  inboxes: InboxStore;
  clock: Clock;
  links: DownloadLinks;
  /** The pod's inbox, or a 404. */
  ownInbox(podId: string, inboxId: string): Promise<InboxRow>;
  /** The pod's inbox and its copy of a message, or a 404. */
  ownMessage(
    podId: string,
    inboxId: string,
    messageId: string,
  ): Promise<{ inbox: InboxRow; found: MessageWithAttachments }>;
}

export type DownloadOperations = "getAttachment" | "getRawMessage" | "getThreadAttachment";

/** The operation anyone may call: a signed link is its own permission. */
export type InboxPublicOperationId = "getDownload";

export type InboxPublicHandlers = OperationHandlers<operations, InboxPublicOperationId, RequestContext<null>>;

const RAW_MEDIA_TYPE = "message/rfc822";

/**
 * An attachment's `content_type` as a `Content-Type` header: a sender may have given any string, and one that is not
 * a media type (or holds characters a header cannot) is served as the bytes it is, `application/octet-stream`.
 */
function servableMediaType(contentType: string): string {
  try {
    return formatMediaType(parseMediaType(contentType));
  } catch {
    return "application/octet-stream";
  }
}

const attachmentBytes = (attachment: AttachmentContent) => ({
  status: 200 as const,
  body: attachment.content,
  contentType: servableMediaType(attachment.content_type),
  headers: { "Content-Disposition": contentDisposition(attachment.filename) },
});

const linkGone = () =>
  new InboxProblem(404, "NOT_FOUND", "This download link is not valid, or its time is up; ask for a fresh one.", {
    field: "token",
  });

/**
 * The source of the inbox's copy of a message: the stored one, or, for copies stored before sources were kept, one
 * built from its own fields and attachments, the same bytes on every read.
 */
async function sourceOf(inboxes: InboxStore, found: MessageWithAttachments): Promise<Uint8Array> {
  const message = toMessage(found.message, found.attachments, found.deliveries);
  const stored = await inboxes.findMessageSource(message.inbox_id, message.message_id);
  if (stored) {
    return stored;
  }
  return buildMessageSource({
    ...message,
    attachments: await Promise.all(
      message.attachments.map(async (attachment) => ({
        ...attachment,
        content:
          (await inboxes.findAttachment(message.inbox_id, message.message_id, attachment.attachment_id))?.content ??
          new Uint8Array(),
      })),
    ),
  });
}

/**
 * Attachment and source downloads: the bytes by default, or, for a request that asks for JSON (as AgentMail's SDKs
 * do), AgentMail's answer with a signed `download_url` that `getDownload` serves without a key.
 */
export function createDownloadHandlers(deps: DownloadHandlerDependencies): Pick<InboxHandlers, DownloadOperations> {
  const { inboxes, clock, links, ownInbox, ownMessage } = deps;

  async function link(target: DownloadTarget, origin: string | undefined) {
    const { token, expiresAt } = await links.sign(target, clock.now());
    return { download_url: downloadUrl(origin, token), expires_at: expiresAt };
  }

  async function attachmentAnswer(
    target: DownloadTarget & { attachmentId: string },
    attachment: AttachmentContent,
    context: DownloadRequest & { origin?: string },
  ) {
    const mediaType = servableMediaType(attachment.content_type);
    if (!wantsJsonLink(context, mediaType)) {
      return attachmentBytes(attachment);
    }
    return {
      status: 200 as const,
      body: {
        attachment_id: target.attachmentId,
        filename: attachment.filename,
        content_type: attachment.content_type,
        size: attachment.content.byteLength,
        ...(await link(target, context.origin)),
      },
    };
  }

  /**
   * The attachment `attachmentId` that `find` looks up in the pod's inbox, with the message that holds it, as its
   * bytes or a link; a 404 when there is none.
   */
  async function answerAttachment(
    context: RequestContext<InboxCaller>,
    inboxId: string,
    attachmentId: string,
    find: (inboxId: string) => Promise<{ attachment: AttachmentContent; messageId: string } | null>,
  ) {
    const inbox = await ownInbox(context.caller.podId, inboxId);
    const found = await find(inbox.inbox_id);
    if (!found) {
      throw new InboxProblem(404, "NOT_FOUND", `Attachment '${attachmentId}' was not found.`, {
        field: "attachment_id",
      });
    }
    const target = { podId: context.caller.podId, inboxId: inbox.inbox_id, messageId: found.messageId, attachmentId };
    return attachmentAnswer(target, found.attachment, context);
  }

  return {
    async getAttachment({ path }, context) {
      return answerAttachment(context, path.inbox_id, path.attachment_id, async (inboxId) => {
        const attachment = await inboxes.findAttachment(inboxId, path.message_id, path.attachment_id);
        return attachment && { attachment, messageId: path.message_id };
      });
    },

    async getThreadAttachment({ path }, context) {
      return answerAttachment(context, path.inbox_id, path.attachment_id, async (inboxId) => {
        const attachment = await inboxes.findThreadAttachment(inboxId, path.thread_id, path.attachment_id);
        return attachment && { attachment, messageId: attachment.message_id };
      });
    },

    async getRawMessage({ path }, context) {
      const { inbox, found } = await ownMessage(context.caller.podId, path.inbox_id, path.message_id);
      const source = await sourceOf(inboxes, found);
      if (!wantsJsonLink(context, RAW_MEDIA_TYPE)) {
        return { status: 200, body: source, contentType: RAW_MEDIA_TYPE };
      }
      const target = { podId: context.caller.podId, inboxId: inbox.inbox_id, messageId: found.message.message_id };
      return {
        status: 200,
        body: {
          message_id: found.message.message_id,
          size: source.byteLength,
          ...(await link(target, context.origin)),
        },
      };
    },
  };
}

/** Serves the signed links the downloads answer, to anyone holding one (see download-links.ts). */
export function createPublicDownloadHandlers(
  deps: Pick<DownloadHandlerDependencies, "inboxes" | "clock" | "links">,
): InboxPublicHandlers {
  const { inboxes, clock, links } = deps;
  return {
    async getDownload({ path }) {
      const target = await links.open(path.token, clock.now());
      // The link names its pod: an inbox whose address another pod holds now opens nothing.
      const inbox = target === null ? null : await inboxes.findInbox(target.podId, target.inboxId);
      if (!target || !inbox) {
        throw linkGone();
      }
      if (target.attachmentId !== undefined) {
        const attachment = await inboxes.findAttachment(inbox.inbox_id, target.messageId, target.attachmentId);
        if (!attachment) {
          throw linkGone();
        }
        return attachmentBytes(attachment);
      }
      const found = await inboxes.findMessage(inbox.inbox_id, target.messageId);
      if (!found) {
        throw linkGone();
      }
      return { status: 200, body: await sourceOf(inboxes, found), contentType: RAW_MEDIA_TYPE };
    },
  };
}
