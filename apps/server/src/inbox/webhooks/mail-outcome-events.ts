import type {
  MessageBouncedEvent,
  MessageComplainedEvent,
  MessageDelayedEvent,
  MessageDeliveredEvent,
} from "@pigeonhole/inbox-types";

/** The sent message a relay outcome is about, and when the relay answered. */
export interface OutcomeSubject {
  inboxId: string;
  threadId: string;
  messageId: string;
  timestamp: string;
}

const ids = (subject: OutcomeSubject) => ({
  inbox_id: subject.inboxId,
  thread_id: subject.threadId,
  message_id: subject.messageId,
  timestamp: subject.timestamp,
});

export function messageDeliveredEvent(
  eventId: string,
  subject: OutcomeSubject,
  recipients: readonly string[],
): MessageDeliveredEvent {
  return {
    type: "event",
    event_type: "message.delivered",
    event_id: eventId,
    delivery: { ...ids(subject), recipients: [...recipients] },
  };
}

export function messageDelayedEvent(
  eventId: string,
  subject: OutcomeSubject,
  recipients: readonly { address: string; status: string }[],
  nextAttemptAt: string,
): MessageDelayedEvent {
  return {
    type: "event",
    event_type: "message.delayed",
    event_id: eventId,
    delay: { ...ids(subject), recipients: [...recipients], next_attempt_at: nextAttemptAt },
  };
}

export function messageBouncedEvent(
  eventId: string,
  subject: OutcomeSubject,
  type: "Permanent" | "Transient",
  recipients: readonly { address: string; status: string }[],
): MessageBouncedEvent {
  return {
    type: "event",
    event_type: "message.bounced",
    event_id: eventId,
    bounce: { ...ids(subject), type, sub_type: "General", recipients: [...recipients] },
  };
}

/** Recipients of a delivered message reported it as unwanted (`abuse`); `timestamp` is when the complaint came. */
export function messageComplainedEvent(
  eventId: string,
  subject: OutcomeSubject,
  recipients: readonly string[],
): MessageComplainedEvent {
  return {
    type: "event",
    event_type: "message.complained",
    event_id: eventId,
    complaint: { ...ids(subject), type: "abuse", recipients: [...recipients] },
  };
}
