import { isDeepStrictEqual } from "node:util";
import type { ObservedResponse } from "../test/support/response-validator.ts";
import type { Failure } from "./fuzz-report.ts";
import type { SentRequest } from "./sent-request.ts";
import { describeExchange } from "./sent-request.ts";

export interface ReadBackSetting {
  baseUrl: string;
  ownKey: string;
  conformance(observed: ObservedResponse): string[];
}

/** Pages of a list read while looking for a created item; the lists are newest first, so it is on the first. */
const MAX_PAGES = 5;

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const parseJson = (text: string): unknown => {
  try {
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
};

/**
 * The resource in an answer: the answer itself, or its one object-valued member (`{success, post}` -> the post,
 * `{success, agent, api_key}` -> the agent).
 */
function resourceOf(answer: unknown): JsonObject | undefined {
  if (!isObject(answer)) {
    return undefined;
  }
  const members = Object.values(answer).filter(isObject);
  const scalars = Object.entries(answer).filter(([key, value]) => key !== "success" && !isObject(value));
  return members.length === 1 && scalars.length <= 1 ? members[0] : answer;
}

/** The fields both records have that differ. */
function differences(created: JsonObject, read: JsonObject): string[] {
  return Object.keys(created).filter((key) => key in read && !isDeepStrictEqual(created[key], read[key]));
}

/**
 * Reads a resource back right after a create answered 2xx, with the id from that answer: it must answer 200, conform
 * to the spec, and hold the same values for every field both records have.
 */
export async function readBack(sent: SentRequest, created: unknown, setting: ReadBackSetting): Promise<Failure | null> {
  const readBackPlan = sent.operation.readBack;
  const resource = resourceOf(created);
  if (readBackPlan === null || resource === undefined) {
    return null;
  }
  const failure = (detail: string, read: string): Failure => ({
    kind: "notReadable",
    detail,
    reproduction: `${describeExchange(sent, "2xx", JSON.stringify(created))}; then ${read}`,
  });
  const get = async (path: string, query: Record<string, string> = {}, key = setting.ownKey) => {
    const url = new URL(`${setting.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query)) {
      url.searchParams.set(name, value);
    }
    const response = await fetch(url, {
      headers: { Authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    const body = parseJson(text);
    const violations = setting.conformance({
      method: "GET",
      specPath: readBackPlan.path,
      status: response.status,
      headers: response.headers,
      body,
    });
    return { url, status: response.status, text, body, violations };
  };
  const fill = (values: Record<string, string>) =>
    readBackPlan.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ""));

  if (readBackPlan.kind === "caller") {
    const key = isObject(created) ? created.api_key : undefined;
    if (typeof key !== "string") {
      return failure("the answer carries no api_key", "nothing to read");
    }
    const read = await get(readBackPlan.path, {}, key);
    const shown = `GET ${read.url.pathname} with the new key -> ${read.status} ${read.text.slice(0, 400)}`;
    if (read.status !== 200 || read.violations.length > 0) {
      return failure(read.violations.join("; ") || `the new key reads back as ${read.status}`, shown);
    }
    const changed = differences(resource, resourceOf(read.body) ?? {});
    return changed.length === 0 ? null : failure(`read back with other ${changed.join(", ")}`, shown);
  }

  if (readBackPlan.kind === "item") {
    const { parameter } = readBackPlan;
    // `post_id` is the created record's `id`, `community_name` its `name`.
    const field = /_(id|name)$/.exec(parameter)?.[1];
    const id = resource[parameter] ?? (field === undefined ? undefined : resource[field]);
    if (typeof id !== "string") {
      return failure(`the answer names no ${parameter}`, "nothing to read");
    }
    const read = await get(fill({ ...sent.pathValues, [parameter]: id }));
    const shown = `GET ${read.url.pathname} -> ${read.status} ${read.text.slice(0, 400)}`;
    if (read.status !== 200) {
      return failure(`the created ${parameter} '${id}' reads back as ${read.status}`, shown);
    }
    if (read.violations.length > 0) {
      return failure(read.violations.join("; "), shown);
    }
    const changed = differences(resource, resourceOf(read.body) ?? {});
    return changed.length === 0 ? null : failure(`read back with other ${changed.join(", ")}`, shown);
  }

  // Found in the list at the create's own path, by its `id` (or its first `..._id`).
  const idKey = "id" in resource ? "id" : Object.keys(resource).find((key) => key.endsWith("_id"));
  const id = idKey === undefined ? undefined : resource[idKey];
  let query: Record<string, string> = { limit: "100" };
  let shown = "";
  for (let page = 0; page < MAX_PAGES; page++) {
    const read = await get(fill(sent.pathValues), query);
    shown = `GET ${read.url.pathname}${read.url.search} -> ${read.status} ${read.text.slice(0, 400)}`;
    if (read.status !== 200 || read.violations.length > 0 || !isObject(read.body)) {
      return failure(read.violations.join("; ") || `the list answered ${read.status}`, shown);
    }
    const items = Object.values(read.body).find(Array.isArray) ?? [];
    const found = items.find((item) => isObject(item) && idKey !== undefined && item[idKey] === id);
    if (isObject(found)) {
      const changed = differences(resource, found);
      return changed.length === 0 ? null : failure(`listed with other ${changed.join(", ")}`, shown);
    }
    const { next_page_token: token, next_offset: offset, has_more: more } = read.body;
    if (typeof token === "string") {
      query = { limit: "100", page_token: token };
    } else if (more === true && typeof offset === "number") {
      query = { limit: "100", offset: String(offset) };
    } else {
      break;
    }
  }
  return failure(`the created ${idKey ?? "item"} '${String(id)}' is not in its list`, shown);
}
