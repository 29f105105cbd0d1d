import type { ExtractFromMessageResponse } from "@pigeonhole/test-control-types";
import type { CallOptions, TestControlApi } from "./api.js";

/**
 * The links (http and https, from the text and the html, each once, in order) and one-time codes of the message
 * `messageId` as the inbox `inboxId` holds it, whatever API key owns it.
 */
export type ExtractFromMessage = (
  inboxId: string,
  messageId: string,
  options?: CallOptions,
) => Promise<ExtractFromMessageResponse>;

export function extractControl(api: TestControlApi): ExtractFromMessage {
  return (inboxId, messageId, options) =>
    api.get("/_test/messages/{message_id}/extract", {
      ...options,
      params: { path: { message_id: messageId }, query: { inbox_id: inboxId } },
    });
}
