import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callTable } from "./call-table.ts";

const json = (schema: object) => ({ content: { "application/json": { schema } } });
const document = {
  openapi: "3.1.0",
  paths: {
    "/v1/things": {
      get: {
        operationId: "listThings",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
        responses: {
          "200": json({ $ref: "#/components/schemas/ThingList" }),
          "400": { $ref: "#/components/responses/Bad" },
        },
      },
      post: {
        operationId: "createThing",
        requestBody: { required: true, ...json({ type: "object" }) },
        responses: { "201": json({ type: "object" }), default: { description: "Anything else", ...json({}) } },
      },
    },
    "/v1/things/{id}": {
      parameters: [{ $ref: "#/components/parameters/Id" }],
      get: {
        operationId: "getThing",
        responses: {
          "200": json({ $ref: "#/components/schemas/Thing" }),
          "404": { $ref: "#/components/responses/Bad" },
          "500": json({ type: "object" }),
        },
      },
      patch: {
        operationId: "renameThing",
        requestBody: json({ type: "object" }),
        responses: { "200": json({ type: "object" }) },
      },
      delete: {
        operationId: "deleteThing",
        // A redirect is neither a success nor an error to openapi-fetch.
        responses: { "204": { description: "Gone" }, "303": { description: "Elsewhere", ...json({}) } },
      },
    },
    "/v1/tags": {
      get: { operationId: "listTags", responses: { "200": json({ $ref: "#/components/schemas/Tagged" }) } },
    },
    "/v1/things/{id}/file": {
      parameters: [{ $ref: "#/components/parameters/Id" }],
      get: {
        operationId: "getThingFile",
        responses: { "200": { content: { "application/octet-stream": {}, "text/plain": {} } } },
      },
    },
  },
  components: {
    parameters: { Id: { name: "id", in: "path", required: true, schema: { type: "string" } } },
    responses: { Bad: json({ type: "object" }) },
    schemas: {
      Thing: { type: "object", properties: { tags: { type: "array" }, aliases: { type: "array" } } },
      Tagged: { type: "object", properties: { tags: { type: "array" }, aliases: { type: ["array", "null"] } } },
      ThingList: {
        allOf: [
          { type: "object", properties: { next_page_token: { type: ["string", "null"] } } },
          { type: "object", properties: { things: { type: "array", items: { $ref: "#/components/schemas/Thing" } } } },
        ],
      },
    },
  },
};

/** The lines of one operation's entry in the table. */
function entryOf(table: string, method: string, path: string): string {
  const methodStart = table.indexOf(`  ${method}: {`);
  const start = table.indexOf(`    "${path}": {`, methodStart);
  expect(start).toBeGreaterThan(methodStart);
  return table.slice(start, table.indexOf("\n    };", start));
}

describe("callTable", () => {
  const table = callTable(document);

  it("spells a list's params as optional, its data, its errors and the element of its one array", () => {
    const entry = entryOf(table, "get", "/v1/things");
    expect(entry).toContain('init: { params?: operations["listThings"]["parameters"]; body?: never };');
    expect(entry).toContain("required: false;");
    expect(entry).toContain('data: operations["listThings"]["responses"][200]["content"]["application/json"];');
    expect(entry).toContain('error: operations["listThings"]["responses"][400]["content"]["application/json"];');
    expect(entry).toContain(
      'item: operations["listThings"]["responses"][200]["content"]["application/json"]["things"][number];',
    );
    expect(entry).toContain("download: false;");
  });

  it("requires the init when a path item's referenced parameter is required", () => {
    const entry = entryOf(table, "get", "/v1/things/{id}");
    expect(entry).toContain('init: { params: operations["getThing"]["parameters"]; body?: never };');
    expect(entry).toContain("required: true;");
    // Two arrays in the answer: not a list page.
    expect(entry).toContain("item: never;");
    // Statuses with the same media type share one lookup.
    expect(entry).toContain('error: operations["getThing"]["responses"][404 | 500]["content"]["application/json"];');
  });

  it("takes a nullable array for no list of items", () => {
    expect(entryOf(table, "get", "/v1/tags")).toContain(
      'item: operations["listTags"]["responses"][200]["content"]["application/json"]["tags"][number];',
    );
  });

  it("requires a required body and makes an optional one optional", () => {
    expect(entryOf(table, "post", "/v1/things")).toContain(
      'body: operations["createThing"]["requestBody"]["content"]["application/json"] };',
    );
    expect(entryOf(table, "post", "/v1/things")).toContain("required: true;");
    const rename = entryOf(table, "patch", "/v1/things/{id}");
    expect(rename).toContain(
      'body?: NonNullable<operations["renameThing"]["requestBody"]>["content"]["application/json"] };',
    );
  });

  it("counts a default response among the errors", () => {
    expect(entryOf(table, "post", "/v1/things")).toContain(
      'error: operations["createThing"]["responses"]["default"]["content"]["application/json"];',
    );
  });

  it("reads a success without content as undefined data, and no error responses as never", () => {
    expect(entryOf(table, "delete", "/v1/things/{id}")).toContain("data: undefined;");
    expect(entryOf(table, "delete", "/v1/things/{id}")).toContain("error: never;");
  });

  it("marks a success with content but no JSON as a download", () => {
    const entry = entryOf(table, "get", "/v1/things/{id}/file");
    expect(entry).toContain("download: true;");
    expect(entry).toContain("data: never;");
  });

  it("lists every client method, an empty one as {}", () => {
    expect(table).toContain("  put: {};");
    expect(table.indexOf("  get: {")).toBeLessThan(table.indexOf("  put: {};"));
    expect(table).toContain('import type { operations } from "./schema.js";');
  });

  it("refuses an operation without an operationId", () => {
    const unnamed = { paths: { "/x": { get: { responses: { "204": { description: "ok" } } } } } };
    expect(() => callTable(unnamed)).toThrow(/operationId/);
  });
});

describe("openapi-call-table", () => {
  const dir = mkdtempSync(join(tmpdir(), "call-table-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = join(import.meta.dirname, "cli.ts");
  const run = (...args: string[]) => {
    try {
      execFileSync(process.execPath, [cli, ...args], { stdio: "pipe" });
      return 0;
    } catch (error) {
      return (error as { status: number }).status;
    }
  };

  it("writes the table, then its check passes until the file drifts", () => {
    const input = join(dir, "openapi.json");
    const output = join(dir, "calls.ts");
    writeFileSync(input, JSON.stringify(document));
    expect(run(input, "-o", output, "--check")).toBe(1);
    expect(run(input, "-o", output)).toBe(0);
    expect(readFileSync(output, "utf8")).toBe(callTable(document));
    expect(run(input, "-o", output, "--check")).toBe(0);
    writeFileSync(output, `${readFileSync(output, "utf8")}// edited\n`);
    expect(run(input, "-o", output, "--check")).toBe(1);
    // Four runs of the generator's process: a bound for a busy machine, not a speed check.
  }, 60_000);

  it("explains its usage when the output is missing", () => {
    expect(run("openapi.json")).toBe(2);
  });
});
