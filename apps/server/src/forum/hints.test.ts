import type { ErrorResponse } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { startTestServer } from "../../test/support/test-server.ts";
import type { DocumentOperation, JsonSchema } from "../spec/spec-bundle.ts";
import { dereference, documentOperations, loadSpecBundle } from "../spec/spec-bundle.ts";
import { plainHint } from "./plain-hint.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

/** A value no parameter of the forum accepts: not a UUID, a name, a number or an enum value. */
const INVALID_PARAMETER = "not valid!";
/** A value of the wrong type for every body field but an object one. */
const WRONG_TYPE = [1, 2];

/** A path with each parameter filled: valid-looking, unless `invalid` names it. */
function pathOf(operation: DocumentOperation, invalid?: string): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(
      name === invalid ? INVALID_PARAMETER : name.endsWith("_id") ? "00000000-0000-4000-8000-000000000001" : "general",
    ),
  );
}

/** Requests each operation must refuse: every parameter invalid in turn, an empty body, every body field mistyped. */
function badRequests(document: unknown, operation: DocumentOperation): { path: string; body?: unknown }[] {
  const requests: { path: string; body?: unknown }[] = operation.parameters
    .filter((parameter) => parameter.in === "path" || parameter.in === "query")
    .map((parameter) =>
      parameter.in === "path"
        ? { path: pathOf(operation, parameter.name) }
        : { path: `${pathOf(operation)}?${parameter.name}=${encodeURIComponent(INVALID_PARAMETER)}` },
    );
  const body = operation.operation.requestBody?.content["application/json"]?.schema;
  if (body !== undefined) {
    const schema = dereference<JsonSchema>(document, body);
    const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
    requests.push({ path: pathOf(operation), body: {} });
    for (const property of properties) {
      requests.push({ path: pathOf(operation), body: { [property]: WRONG_TYPE } });
    }
  }
  return requests;
}

describe("the hints of the forum's errors", () => {
  it("are plain text: no Markdown from the spec's descriptions reaches a JSON answer", async () => {
    const document = loadSpecBundle("forum");
    const hints = new Map<string, string>();
    for (const operation of documentOperations(document)) {
      for (const request of badRequests(document, operation)) {
        const response = await fetch(`${t.server.forum.url}${request.path}`, {
          method: operation.method.toUpperCase(),
          headers: { authorization: `Bearer ${t.server.forum.apiKey}`, "content-type": "application/json" },
          ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        });
        const answer = (await response.json().catch(() => null)) as ErrorResponse | null;
        if (response.status >= 400 && answer !== null) {
          hints.set(`${operation.method.toUpperCase()} ${request.path} ${JSON.stringify(request.body)}`, answer.hint);
        }
      }
    }
    // Enough refusals that the descriptions behind them, which are Markdown, were read.
    expect(hints.size).toBeGreaterThan(25);
    const marked = [...hints].filter(([, hint]) => /`|\]\(/.test(hint));
    expect(marked).toEqual([]);
  });

  it("keep what a code span said, in quotes, and a link's text", () => {
    expect(plainHint("3 to 32 characters of `a-z 0-9 _ -`; see [List Posts](/reference/forum/list-posts/).")).toBe(
      "3 to 32 characters of 'a-z 0-9 _ -'; see List Posts.",
    );
  });
});
