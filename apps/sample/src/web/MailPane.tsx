import { type FormEvent, useState } from "react";
import type { SampleApi } from "./api.ts";
import { ComposeForm } from "./ComposeForm.tsx";
import { formatTime } from "./format.ts";
import { type DeliveryUpdate, type MessageArrival, useAction, useLoader } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";
import { ThreadView } from "./ThreadView.tsx";

interface MailPaneProps {
  api: SampleApi;
  /** Messages that arrived, from the Inbox API's live events, oldest first. */
  arrivals: MessageArrival[];
  /** The relay's answers about sent mail, from the same live events, oldest first. */
  deliveries: DeliveryUpdate[];
}

/** Inboxes, their threads, and a form to send mail from the selected inbox. */
export function MailPane({ api, arrivals, deliveries }: MailPaneProps) {
  const inboxes = useLoader(() => api.listInboxes(), [api]);
  const [selected, setSelected] = useState<string>();
  // The last arrival seen in each inbox: later arrivals in another inbox show as "new".
  const [seenUpTo, setSeenUpTo] = useState<Record<string, number>>({});
  const newIn = (inboxId: string) =>
    arrivals.filter((arrival) => arrival.inboxId === inboxId && arrival.seq > (seenUpTo[inboxId] ?? 0)).length;
  const open = (inboxId: string) => {
    setSelected(inboxId);
    setSeenUpTo((seen) => ({ ...seen, [inboxId]: arrivals.at(-1)?.seq ?? 0 }));
  };

  const create = useAction();
  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    void create.run(async () => {
      const username = String(fields.get("username"));
      const displayName = String(fields.get("display_name"));
      // Both are optional: without a username the API makes one up.
      const inbox = await api.createInbox({
        ...(username && { username }),
        ...(displayName && { display_name: displayName }),
      });
      form.reset();
      inboxes.reload();
      open(inbox.inbox_id);
    });
  };

  return (
    <section className="pane" aria-label="Mail">
      <h2>Mail</h2>
      <form className="row" onSubmit={onCreate} aria-label="Create inbox">
        <input name="username" placeholder="username, e.g. ada" aria-label="Username" />
        <input name="display_name" placeholder="display name (optional)" aria-label="Display name" />
        <button type="submit" disabled={create.pending}>
          Create inbox
        </button>
      </form>
      <ProblemNotice error={create.problem ?? inboxes.problem} />
      <ul className="inboxes" aria-label="Inboxes">
        {inboxes.data?.map((inbox) => {
          const count = inbox.inbox_id === selected ? 0 : newIn(inbox.inbox_id);
          return (
            <li key={inbox.inbox_id}>
              <button type="button" aria-pressed={inbox.inbox_id === selected} onClick={() => open(inbox.inbox_id)}>
                {inbox.display_name ?? inbox.inbox_id.split("@")[0]}
                <small>{inbox.inbox_id}</small>
                {count > 0 && <span className="badge">{count} new</span>}
              </button>
            </li>
          );
        })}
      </ul>
      {inboxes.data?.length === 0 && <p className="muted">No inboxes yet: create two and send mail between them.</p>}
      {/* Only an inbox the list shows: while the list fails, nothing of the last answer stays on the page. */}
      {selected !== undefined && inboxes.data?.some((inbox) => inbox.inbox_id === selected) && (
        <InboxView
          key={selected}
          api={api}
          inboxId={selected}
          addresses={inboxes.data?.map((inbox) => inbox.inbox_id) ?? []}
          lastArrival={arrivals.findLast((arrival) => arrival.inboxId === selected)}
          lastDelivery={deliveries.findLast((update) => update.inboxId === selected)}
        />
      )}
    </section>
  );
}

interface InboxViewProps {
  api: SampleApi;
  inboxId: string;
  /** Addresses offered in the To field. */
  addresses: string[];
  /** The newest arrival in this inbox: the thread list reloads when it changes. */
  lastArrival: MessageArrival | undefined;
  /** The relay's newest answer about mail this inbox sent. */
  lastDelivery: DeliveryUpdate | undefined;
}

function InboxView({ api, inboxId, addresses, lastArrival, lastDelivery }: InboxViewProps) {
  const threads = useLoader(() => api.listThreads(inboxId), [api, inboxId, lastArrival?.seq]);
  const [openThread, setOpenThread] = useState<string>();
  return (
    <>
      <ComposeForm api={api} inboxId={inboxId} addresses={addresses} onSent={threads.reload} />
      <h3>Threads of {inboxId}</h3>
      <ProblemNotice error={threads.problem} />
      <ul className="threads" aria-label="Threads">
        {threads.data?.threads.map((thread) => (
          <li key={thread.thread_id}>
            <button
              type="button"
              aria-pressed={thread.thread_id === openThread}
              onClick={() => setOpenThread(thread.thread_id)}
            >
              <span>{thread.subject ?? "(no subject)"}</span>
              <small>
                {thread.message_count} {thread.message_count === 1 ? "message" : "messages"} ·{" "}
                {formatTime(thread.last_message_at)}
              </small>
            </button>
          </li>
        ))}
      </ul>
      {threads.data?.count === 0 && <p className="muted">No mail yet.</p>}
      {openThread !== undefined && (
        <ThreadView
          key={openThread}
          api={api}
          inboxId={inboxId}
          threadId={openThread}
          lastArrival={lastArrival?.threadId === openThread ? lastArrival : undefined}
          lastDelivery={lastDelivery?.threadId === openThread ? lastDelivery : undefined}
          onSent={threads.reload}
        />
      )}
    </>
  );
}
