import type { operations } from "@pigeonhole/test-control-types";
import { ApiProblem } from "../../http/api-problem.ts";
import type { OperationHandlers, RequestContext } from "../../http/operation-types.ts";
import { normalizeAddress } from "../../mail/mail-address.ts";
import type { Storage } from "../../storage/open-storage.ts";
import { extractCodes } from "./extract-codes.ts";
import { extractLinks } from "./extract-links.ts";

export interface ExtractHandlerOptions {
  storage: Pick<Storage, "inboxes">;
}

export type ExtractHandlers = OperationHandlers<operations, "extractFromMessage", RequestContext<unknown>>;

/** Extract From Message: the links and one-time codes of a message of any pod. */
export function createExtractHandlers(options: ExtractHandlerOptions): ExtractHandlers {
  return {
    async extractFromMessage({ path, query }) {
      const found = await options.storage.inboxes.findMessage(normalizeAddress(query.inbox_id), path.message_id);
      if (!found) {
        throw new ApiProblem(
          404,
          "NOT_FOUND",
          `Message '${path.message_id}' was not found in inbox '${query.inbox_id}'.`,
          { field: "message_id" },
        );
      }
      const bodies = { text: found.message.text_body, html: found.message.html_body };
      return { status: 200, body: { links: extractLinks(bodies), codes: extractCodes(bodies) } };
    },
  };
}
