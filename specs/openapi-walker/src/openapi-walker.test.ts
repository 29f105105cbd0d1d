import { describe, expect, it } from "vitest";
import {
  dereference,
  OPERATION_METHODS,
  type PathMap,
  pointerSegment,
  resolvePointer,
  walkOperations,
} from "./openapi-walker.ts";

interface Parameter {
  name: string;
  in: string;
  description?: string;
}
interface Operation {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
}

const document = {
  openapi: "3.1.0",
  paths: {
    "/items": {
      summary: "Items",
      description: "Not an operation.",
      trace: { operationId: "traceItems" },
      post: { operationId: "createItem" },
      get: { operationId: "listItems", parameters: [{ $ref: "#/components/parameters/Limit" }] },
    },
    "/items/{item_id}": {
      parameters: [
        { name: "item_id", in: "path", description: "path level" },
        { name: "verbose", in: "query", description: "path level" },
      ],
      get: { operationId: "getItem" },
      patch: {
        operationId: "updateItem",
        parameters: [
          { name: "verbose", in: "query", description: "operation level" },
          { name: "verbose", in: "header", description: "another location" },
        ],
      },
    },
    "/shared": { $ref: "#/components/pathItems/Shared" },
  },
  webhooks: {
    "item.created": { post: { operationId: "itemCreated" } },
  },
  components: {
    parameters: {
      Limit: { $ref: "#/components/parameters/PageSize" },
      PageSize: { name: "limit", in: "query" },
    },
    pathItems: { Shared: { delete: { operationId: "deleteShared" } } },
    schemas: { "a/b~c": { type: "string" } },
  },
};
const paths: PathMap<Operation, Parameter> = document.paths;
const summary = (walked: ReturnType<typeof walkOperations<Operation, Parameter>>) =>
  walked.map(({ method, path, operation, parameters }) => ({
    at: `${method} ${path} ${operation.operationId}`,
    parameters: parameters.map((p) => `${p.in}:${p.name} ${p.description ?? ""}`.trim()),
  }));

describe("walkOperations", () => {
  it("yields every operation in document order, methods in the specification's order, and nothing else", () => {
    expect(summary(walkOperations(document, paths)).map(({ at }) => at)).toEqual([
      "get /items listItems",
      "post /items createItem",
      "trace /items traceItems",
      "get /items/{item_id} getItem",
      "patch /items/{item_id} updateItem",
      "delete /shared deleteShared",
    ]);
    expect(OPERATION_METHODS).toEqual(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
  });

  it("merges path-level parameters into each operation, the operation's own winning by name and location", () => {
    const walked = summary(walkOperations(document, paths));
    expect(walked.find(({ at }) => at.startsWith("get /items/"))?.parameters).toEqual([
      "path:item_id path level",
      "query:verbose path level",
    ]);
    expect(walked.find(({ at }) => at.startsWith("patch"))?.parameters).toEqual([
      "path:item_id path level",
      "query:verbose operation level",
      "header:verbose another location",
    ]);
  });

  it("resolves chains of parameter references and referenced path items", () => {
    const walked = summary(walkOperations(document, paths));
    expect(walked[0]?.parameters).toEqual(["query:limit"]);
    expect(walked.at(-1)?.at).toBe("delete /shared deleteShared");
  });

  it("walks webhooks like paths, and an absent map as empty", () => {
    const webhooks: PathMap<Operation, Parameter> = document.webhooks;
    expect(summary(walkOperations(document, webhooks))).toEqual([
      { at: "post item.created itemCreated", parameters: [] },
    ]);
    expect(walkOperations<Operation, Parameter>(document, undefined)).toEqual([]);
  });

  it("hands out the document's own operation objects, so a caller can annotate them in place", () => {
    const [first] = walkOperations(document, paths);
    expect(first?.operation).toBe(document.paths["/items"].get);
  });

  it("refuses a parameter with no name or location", () => {
    const broken: PathMap<Operation, Parameter> = {
      "/x": { get: { operationId: "x", parameters: [{ $ref: "#/components/schemas/a~1b~0c" }] } },
    };
    expect(() => walkOperations(document, broken)).toThrow("A parameter needs a name and a location");
  });
});

describe("references", () => {
  it("escapes and unescapes JSON pointer segments", () => {
    expect(pointerSegment("a/b~c")).toBe("a~1b~0c");
    expect(resolvePointer(document, `#/components/schemas/${pointerSegment("a/b~c")}`)).toEqual({ type: "string" });
  });

  it("refuses references that are not local or do not resolve", () => {
    expect(() => resolvePointer(document, "other.json#/components")).toThrow("Only local references");
    expect(() => resolvePointer(document, "#/components/schemas/Missing")).toThrow("does not resolve");
    expect(() => resolvePointer(document, "#/components/toString")).toThrow("does not resolve");
  });

  it("follows a chain of references to its end, and stops on a cycle", () => {
    expect(dereference(document, { $ref: "#/components/parameters/Limit" })).toEqual({ name: "limit", in: "query" });
    const looped = { a: { $ref: "#/b" }, b: { $ref: "#/a" } };
    expect(() => dereference(looped, { $ref: "#/a" })).toThrow("refers to itself");
  });
});
