import type { ApiKey } from "@pigeonhole/inbox-types";
import { withSpecDefault } from "../http/operation-types.ts";
import type { ApiKeys, PodKeyRecord } from "../keys/api-keys.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import type { PageTokens } from "./page-token.ts";

/** Keys one pod may hold: creating keys is cheap for the caller, and each is a row every lookup may find. */
export const API_KEYS_PER_POD = 100;

export interface KeyHandlerDependencies {
  apiKeys: ApiKeys;
  pageTokens: PageTokens;
}

type KeyHandlers = Pick<
  InboxHandlers,
  "listApiKeys" | "createApiKey" | "getApiKey" | "deleteApiKey" | "getAuthIdentity"
>;

/** A pod's key as AgentMail's `ApiKey` shows it: keys never change, so `updated_at` is `created_at`. */
const toApiKey = (record: PodKeyRecord): ApiKey => ({
  type: "bearer",
  api_key_id: record.keyId,
  prefix: record.prefix ?? "",
  name: record.name ?? record.keyId,
  pod_id: record.podId,
  created_at: record.createdAt,
  updated_at: record.createdAt,
});

const keyNotFound = (keyId: string) =>
  new InboxProblem(404, "NOT_FOUND", `API key '${keyId}' was not found.`, { field: "api_key_id" });

/**
 * The pod's own API keys (AgentMail's `/v0/api-keys`) and `auth/me`. Every key of a pod opens the whole pod; one pod
 * never sees another's keys (a foreign id is a 404). A page token holds the last key's `created_at` and id.
 */
export function createKeyHandlers(deps: KeyHandlerDependencies): KeyHandlers {
  const { apiKeys, pageTokens } = deps;
  return {
    async listApiKeys({ query }, { caller }) {
      const limit = withSpecDefault(query.limit, "limit");
      const scope = `api-keys:${caller.podId}`;
      const cursor = query.page_token === undefined ? undefined : pageTokens.read(scope, query.page_token);
      const after = cursor && {
        createdAt: cursor.createdAt.slice(0, cursor.seq),
        keyId: cursor.createdAt.slice(cursor.seq),
      };
      const rows = await apiKeys.listPodKeys(caller.podId, limit + 1, after);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      // The position's text is `created_at` then the key id; `seq` says where one ends.
      const nextPageToken =
        rows.length > limit && last
          ? pageTokens.issue(scope, { createdAt: last.createdAt + last.keyId, seq: last.createdAt.length })
          : null;
      return {
        status: 200,
        body: { count: page.length, limit, next_page_token: nextPageToken, api_keys: page.map(toApiKey) },
      };
    },

    async createApiKey({ body }, { caller }) {
      const created = await apiKeys.createPodKey(caller.podId, body?.name ?? null, API_KEYS_PER_POD);
      if ("limitReached" in created) {
        throw new InboxProblem(
          409,
          "API_KEY_LIMIT_REACHED",
          `This pod has ${API_KEYS_PER_POD} API keys, the most it may have; delete one before creating another.`,
          { field: null },
        );
      }
      const { key, record } = created;
      const shown = toApiKey(record);
      return {
        status: 200,
        body: {
          api_key_id: shown.api_key_id,
          api_key: key,
          prefix: shown.prefix,
          name: shown.name,
          pod_id: shown.pod_id,
          created_at: shown.created_at,
        },
      };
    },

    async getApiKey({ path }, { caller }) {
      const record = await apiKeys.findPodKey(caller.podId, path.api_key_id);
      if (!record) {
        throw keyNotFound(path.api_key_id);
      }
      return { status: 200, body: toApiKey(record) };
    },

    async deleteApiKey({ path }, { caller }) {
      // A key deleting itself would leave its holder, and perhaps the pod, with no way back in.
      if (path.api_key_id === caller.keyId) {
        throw new InboxProblem(
          409,
          "KEY_IN_USE",
          `API key '${path.api_key_id}' is the key of this request; delete it with another key of the pod.`,
          { field: "api_key_id" },
        );
      }
      if (!(await apiKeys.deletePodKey(caller.podId, path.api_key_id))) {
        throw keyNotFound(path.api_key_id);
      }
      return { status: 204, body: undefined };
    },

    async getAuthIdentity(_input, { caller }) {
      return {
        status: 200,
        body: { scope_type: "pod", scope_id: caller.podId, pod_id: caller.podId, api_key_id: caller.keyId ?? "" },
      };
    },
  };
}
