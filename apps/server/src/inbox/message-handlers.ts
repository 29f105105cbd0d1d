import type { SendMessageResponse } from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import type { InboxStore, MessageWithAttachments } from "../storage/inbox/inbox-store.ts";
import type { InboxRow } from "../storage/schema.ts";
import { forwardSendBody } from "./forward-message.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import { labelChange } from "./message-labels.ts";
import { toMessage } from "./records.ts";
import { replyRecipients, replySendBody } from "./reply-addressing.ts";
import type { SendContext } from "./send-message.ts";
import { sendMessage } from "./send-message.ts";

/** What the message operations share with the rest of the Inbox API's handlers. */
export interface MessageHandlerDependencies {
  inboxes: InboxStore;
  clock: Clock;
  sendContext: SendContext;
  /** The pod's inbox, or a 404. */
  ownInbox(podId: string, inboxId: string): Promise<InboxRow>;
  /** The pod's inbox and its copy of a message, or a 404. */
  ownMessage(
    podId: string,
    inboxId: string,
    messageId: string,
  ): Promise<{ inbox: InboxRow; found: MessageWithAttachments }>;
  /** A 400 for an inbox outside the hosted domains, which reads but never sends. */
  refuseUnhostedSender(inboxId: string): void;
}

export type MessageOperations =
  | "sendMessageAtSendPath"
  | "replyAllMessage"
  | "forwardMessage"
  | "deleteMessage"
  | "batchGetMessages"
  | "batchUpdateMessages";

const messageOf = ({ message, attachments, deliveries }: MessageWithAttachments) =>
  toMessage(message, attachments, deliveries);

/** Send at AgentMail's path, reply all, forward, delete, and the batch reads and relabels of an inbox's messages. */
export function createMessageHandlers(deps: MessageHandlerDependencies): Pick<InboxHandlers, MessageOperations> {
  const { inboxes, clock, sendContext, ownInbox, ownMessage, refuseUnhostedSender } = deps;

  async function sendFrom(
    inbox: InboxRow,
    podId: string,
    body: Parameters<typeof sendMessage>[1]["body"],
    idempotencyKey: string | undefined,
    fingerprint?: unknown,
  ): Promise<SendMessageResponse> {
    refuseUnhostedSender(inbox.inbox_id);
    return sendMessage(sendContext, {
      podId,
      inboxId: inbox.inbox_id,
      displayName: inbox.display_name,
      body,
      idempotencyKey,
      ...(fingerprint === undefined ? {} : { fingerprint }),
    });
  }

  return {
    async sendMessageAtSendPath({ path, headers, body }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      // The seed's path and this one are one operation: a key used on either returns the same ids on both.
      return { status: 200, body: await sendFrom(inbox, caller.podId, body, headers["Idempotency-Key"]) };
    },

    async replyAllMessage({ path, headers, body }, { caller }) {
      const { inbox, found } = await ownMessage(caller.podId, path.inbox_id, path.message_id);
      refuseUnhostedSender(inbox.inbox_id);
      const message = messageOf(found);
      const recipients = replyRecipients(inbox.inbox_id, message, true);
      if (recipients.to.length === 0) {
        throw new InboxProblem(
          400,
          "INVALID_VALUE",
          `Message '${message.message_id}' has no one to reply to but this inbox.`,
          {
            field: "message_id",
          },
        );
      }
      const sent = await sendFrom(
        inbox,
        caller.podId,
        replySendBody(message, body, recipients),
        headers["Idempotency-Key"],
        // The same fingerprint as Reply To Message with `reply_all`: both are one request.
        { inbox_id: inbox.inbox_id, reply_to: message.message_id, body: { ...body, reply_all: true } },
      );
      return { status: 200, body: sent };
    },

    async forwardMessage({ path, headers, body }, { caller }) {
      const { inbox, found } = await ownMessage(caller.podId, path.inbox_id, path.message_id);
      refuseUnhostedSender(inbox.inbox_id);
      const message = messageOf(found);
      const carried = [];
      for (const attachment of message.attachments) {
        const content = await inboxes.findAttachment(inbox.inbox_id, message.message_id, attachment.attachment_id);
        if (content) {
          carried.push(content);
        }
      }
      const sent = await sendFrom(
        inbox,
        caller.podId,
        forwardSendBody(message, body, carried),
        headers["Idempotency-Key"],
        { inbox_id: inbox.inbox_id, forward: message.message_id, body },
      );
      return { status: 200, body: sent };
    },

    async deleteMessage({ path }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      if (!(await inboxes.deleteMessage(inbox.inbox_id, path.message_id, isoTimestamp(clock.now())))) {
        throw new InboxProblem(404, "NOT_FOUND", `Message '${path.message_id}' was not found.`, {
          field: "message_id",
        });
      }
      return { status: 204, body: undefined };
    },

    async batchGetMessages({ path, body }, { caller }) {
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const messages = (await inboxes.findMessages(inbox.inbox_id, body.message_ids)).map(messageOf);
      return { status: 200, body: { limit: body.message_ids.length, count: messages.length, messages } };
    },

    async batchUpdateMessages({ path, body }, { caller }) {
      const relabel = labelChange(body);
      const inbox = await ownInbox(caller.podId, path.inbox_id);
      const updated = await inboxes.relabelMessages(
        inbox.inbox_id,
        body.message_ids,
        relabel,
        isoTimestamp(clock.now()),
      );
      const updates = updated.map((row) => ({
        message_id: row.message_id,
        labels: JSON.parse(row.labels) as string[],
      }));
      return { status: 200, body: { limit: body.message_ids.length, count: updates.length, updates } };
    },
  };
}
