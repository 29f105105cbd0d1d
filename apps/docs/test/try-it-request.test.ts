import { describe, expect, it } from "vitest";
import { overviewTitle } from "../src/components/reference/overview-title.ts";
import { makeDocumentReadable } from "../src/components/reference/readable-schemas.ts";
import { buildRequestUrl, parseBaseUrl, TryItRequestError } from "../src/components/reference/try-it-request.ts";

describe("the Try it panel's request address", () => {
  it("takes an http or https server, with a path prefix, and nothing that could carry a key elsewhere", () => {
    expect(parseBaseUrl(" http://127.0.0.1:4010 ").href).toBe("http://127.0.0.1:4010/");
    expect(parseBaseUrl("https://api.example.com/pigeonhole/?x=1#y").href).toBe("https://api.example.com/pigeonhole/");
    for (const bad of ["127.0.0.1:4010", "javascript:alert(1)", "file:///etc/passwd", "http://user:pw@example.com"]) {
      expect(() => parseBaseUrl(bad), bad).toThrow(TryItRequestError);
    }
  });

  it("puts the path parameters into the path URL-encoded, so that no value leaves the chosen server", () => {
    const base = parseBaseUrl("http://127.0.0.1:4010/prefix/");
    const path = "/v0/inboxes/{inbox_id}/messages/{message_id}";
    const url = buildRequestUrl(
      base,
      path,
      new Map([
        ["inbox_id", "support@pigeonhole.test"],
        ["message_id", "<a/b?c#d@x>"],
      ]),
      [["limit", "5"]],
    );
    expect(url.href).toBe(
      "http://127.0.0.1:4010/prefix/v0/inboxes/support%40pigeonhole.test/messages/%3Ca%2Fb%3Fc%23d%40x%3E?limit=5",
    );
    for (const hostile of ["//evil.example/x", "http://evil.example/", "..", "@evil.example"]) {
      const hostileUrl = buildRequestUrl(
        base,
        path,
        new Map([
          ["inbox_id", hostile],
          ["message_id", "m"],
        ]),
        [],
      );
      expect(hostileUrl.origin, hostile).toBe("http://127.0.0.1:4010");
    }
    expect(() => buildRequestUrl(base, path, new Map([["inbox_id", "a@b.test"]]), [])).toThrow(/message_id/);
  });
});

describe("the reference's page titles and schemas", () => {
  const specs = [{ base: "reference/inbox", label: "Inbox API" }];
  const document = { tags: [{ name: "Messages" }, { name: "Webhook deliveries" }] };

  it("names an API's overview and each tag's overview after them", () => {
    expect(overviewTitle("/reference/inbox/", specs, () => document)).toBe("Inbox API");
    expect(overviewTitle("/reference/inbox/operations/tags/messages/", specs, () => document)).toBe(
      "Inbox API: Messages",
    );
    expect(overviewTitle("/reference/inbox/operations/tags/webhook-deliveries/", specs, () => document)).toBe(
      "Inbox API: Webhook deliveries",
    );
    expect(overviewTitle("/reference/inbox/operations/sendmessage/", specs, () => document)).toBeUndefined();
    expect(overviewTitle("/guides/errors/", specs, () => document)).toBeUndefined();
  });

  it("shows long patterns by their format, zeros with their keyword, and a parameter's description once", () => {
    const address = { type: "string", format: "email", pattern: `^${"x".repeat(100)}$`, description: "An address." };
    const spec = {
      components: {
        parameters: { InboxId: { name: "inbox_id", in: "path", description: "The inbox.", schema: address } },
        schemas: {
          EmailAddress: address,
          Offset: { type: "integer", minimum: 0, default: 0, maximum: 10 },
          Short: { type: "string", pattern: "^[a-z]+$" },
          Example: { type: "object", examples: [{ default: 0, pattern: "x".repeat(100) }] },
        },
      },
    };
    makeDocumentReadable(spec);
    makeDocumentReadable(spec);
    expect(address).toEqual({ type: "string", format: "email", description: "An address." });
    expect(spec.components.parameters.InboxId.schema).toEqual({ type: "string", format: "email" });
    expect(spec.components.schemas.Offset).toEqual({ type: "integer", minimum: "0", default: "0", maximum: 10 });
    expect(spec.components.schemas.Short.pattern).toBe("^[a-z]+$");
    expect(spec.components.schemas.Example.examples).toEqual([{ default: 0, pattern: "x".repeat(100) }]);
  });
});
