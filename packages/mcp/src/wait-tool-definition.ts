// The one tool no operation describes: waiting for mail, which agents otherwise do by polling, badly.
import type { JsonSchema } from "./tool-definition.js";

/** The longest wait one call may ask for; a client that needs longer calls again. */
export const MAX_WAIT_SECONDS = 60;
export const DEFAULT_WAIT_SECONDS = 30;

export const WAIT_FOR_MESSAGE_TOOL = {
  name: "inbox_wait_for_message",
  title: "Wait for a message",
  description:
    "Returns the oldest unread message received by an inbox, waiting for one to arrive when there is none. " +
    "The message returned is marked read (its `unread` label is removed), so calling again returns the next one: " +
    "use it to read an inbox as a queue, for example after sending a message that expects an answer. " +
    `Waits at most \`timeout_seconds\` (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}); ` +
    'when nothing arrives it answers `{"message": null, "timed_out": true}`, and you may simply call it again.',
  inputSchema: {
    type: "object",
    properties: {
      inbox_id: { type: "string", description: "The inbox to read, such as `agent@pigeonhole.test`." },
      timeout_seconds: {
        type: "integer",
        minimum: 1,
        maximum: MAX_WAIT_SECONDS,
        description: `How long to wait for a message when none is unread, in seconds (default ${DEFAULT_WAIT_SECONDS}).`,
      },
    },
    required: ["inbox_id"],
    additionalProperties: false,
  } satisfies JsonSchema,
} as const;
