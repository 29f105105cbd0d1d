import type { Message, RecipientDelivery } from "@pigeonhole/inbox";
import type { FormEvent } from "react";
import type { SampleApi } from "./api.ts";
import { addressOf, formatTime } from "./format.ts";
import { type DeliveryUpdate, type MessageArrival, useAction, useLoader } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";

interface ThreadViewProps {
  api: SampleApi;
  inboxId: string;
  threadId: string;
  /** The newest arrival in this thread: the thread reloads when it changes, so a reply shows without a reload. */
  lastArrival: MessageArrival | undefined;
  /** The relay's newest answer about a message of this thread: the thread reloads to show the new status. */
  lastDelivery: DeliveryUpdate | undefined;
  onSent: () => void;
}

/** One thread, oldest message first, with a reply form. */
export function ThreadView({ api, inboxId, threadId, lastArrival, lastDelivery, onSent }: ThreadViewProps) {
  const thread = useLoader(
    () => api.getThread(inboxId, threadId),
    [api, inboxId, threadId, lastArrival?.seq, lastDelivery?.seq],
  );
  const reply = useAction();
  const messages = thread.data?.messages ?? [];
  const last = messages.at(-1);

  const onReply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (last === undefined) {
      return;
    }
    const form = event.currentTarget;
    const text = String(new FormData(form).get("text"));
    void reply.run(async () => {
      // In-Reply-To and References make the reply join this thread, here and in the recipient's inbox.
      const references = [...last.references, last.message_id].join(" ");
      await api.send(inboxId, {
        to: replyAddresses(last, inboxId),
        subject: last.subject?.startsWith("Re: ") ? last.subject : `Re: ${last.subject ?? ""}`,
        text,
        headers: { "In-Reply-To": last.message_id, References: references },
      });
      form.reset();
      thread.reload();
      onSent();
    });
  };

  return (
    <article className="thread" aria-label="Thread">
      <h3>{thread.data?.subject ?? "(no subject)"}</h3>
      <ProblemNotice error={thread.problem} />
      <ol className="messages">
        {messages.map((message) => (
          <li key={message.message_id} className={message.labels.includes("sent") ? "sent" : "received"}>
            <header>
              <strong>{message.from}</strong> <small>{formatTime(message.timestamp)}</small>
            </header>
            <p>{message.text}</p>
            {message.attachments.length > 0 && (
              <ul className="attachments" aria-label="Attachments">
                {message.attachments.map((attachment) => (
                  <li key={attachment.attachment_id}>
                    {attachment.filename} <small>({attachment.size} bytes)</small>
                  </li>
                ))}
              </ul>
            )}
            {message.deliveries.length > 0 && <Deliveries deliveries={message.deliveries} />}
          </li>
        ))}
      </ol>
      {last !== undefined && (
        <form className="row" onSubmit={onReply} aria-label="Reply">
          <input name="text" placeholder="reply" aria-label="Reply text" />
          <button type="submit" disabled={reply.pending}>
            Reply
          </button>
        </form>
      )}
      <ProblemNotice error={reply.problem} />
    </article>
  );
}

/**
 * Where each recipient of a sent message stands: `local` for an inbox of the service, `captured` when the Pigeonhole
 * server has no relay (mail to outside addresses is kept, not sent), else what the relay answered.
 */
function Deliveries({ deliveries }: { deliveries: RecipientDelivery[] }) {
  return (
    <ul className="deliveries" aria-label="Deliveries">
      {deliveries.map((delivery) => (
        <li key={delivery.address} className={`delivery-${delivery.status}`} title={delivery.smtp_reply ?? undefined}>
          {delivery.address}: {delivery.status}
        </li>
      ))}
    </ul>
  );
}

/** Who a reply goes to: the sender of a received message, the recipients of one we sent. */
function replyAddresses(message: Message, inboxId: string): string[] {
  const sender = addressOf(message.from);
  return sender === inboxId ? message.to : [sender];
}
