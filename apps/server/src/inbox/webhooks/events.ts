import type { Message, MessageReceivedEvent, MessageSentEvent, ThreadItem } from "@pigeonhole/inbox-types";
import { randomBase62 } from "../../ids.ts";

export const newEventId = (): string => `evt_${randomBase62(16)}`;

export function messageReceivedEvent(eventId: string, message: Message, thread: ThreadItem): MessageReceivedEvent {
  return { type: "event", event_type: "message.received", event_id: eventId, message, thread };
}

export function messageSentEvent(eventId: string, message: Message): MessageSentEvent {
  return {
    type: "event",
    event_type: "message.sent",
    event_id: eventId,
    send: {
      inbox_id: message.inbox_id,
      thread_id: message.thread_id,
      message_id: message.message_id,
      timestamp: message.timestamp,
      recipients: [...message.to, ...message.cc, ...message.bcc],
    },
  };
}
