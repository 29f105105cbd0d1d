import { describe, expect, it } from "vitest";
import type { ServiceName } from "../../service-name.ts";
import { loadSpecBundle } from "../../spec/spec-bundle.ts";
import { faultAnswerBody, faultAnswerHeaders } from "./fault-answer-body.ts";

// A respond fault without a body answers what the service itself would: only codes the service's spec lists, under
// the status they are listed with.

/** The rows of a service's error table, read from its spec's overview: status, type (inbox only) and code. */
function documentedErrors(service: ServiceName): { status: number; type?: string; code: string }[] {
  const { info } = loadSpecBundle(service) as unknown as { info: { description: string } };
  const row = service === "inbox" ? /^\| (\d{3}) `([a-z_]+)` \| `([A-Z_]+)` \|/gm : /^\| (\d{3}) \| `([A-Z_]+)` \|/gm;
  return [...info.description.matchAll(row)].map((match) =>
    service === "inbox"
      ? { status: Number(match[1]), type: match[2], code: match[3] ?? "" }
      : { status: Number(match[1]), code: match[2] ?? "" },
  );
}

const codeOf = (service: ServiceName, status: number) => {
  const body = faultAnswerBody(service, status);
  return "success" in body
    ? { code: body.code }
    : { code: body.error.details.code, type: body.error.type as string | undefined };
};

describe.each(["inbox", "forum"] as const)("the default answer of a %s request fault", (service) => {
  const documented = documentedErrors(service);

  it("reads the service's error table", () => {
    expect(documented.length).toBeGreaterThan(8);
  });

  it("uses, for every status from 400 to 599, a code the spec lists with that status, or a generic one", () => {
    const listedCodes = new Set(documented.map((row) => row.code));
    for (let status = 400; status <= 599; status++) {
      const answered = codeOf(service, status);
      const rows = documented.filter((row) => row.status === status);
      if (rows.length > 0) {
        // A status the spec documents answers one of its rows, code and type together.
        expect(rows.map(({ code, type }) => ({ code, type }))).toContainEqual(answered);
      } else if (status >= 500) {
        expect(answered.code, String(status)).toBe("INTERNAL_ERROR");
      } else {
        expect(listedCodes, String(status)).toContain(answered.code);
      }
    }
  });

  it("tells clients not to retry a conflict, as the service's own 409 does", () => {
    expect(faultAnswerHeaders(409)).toEqual({ "X-Should-Retry": "false" });
    expect(faultAnswerHeaders(429)).toEqual({});
    expect(faultAnswerHeaders(503)).toEqual({});
  });
});
