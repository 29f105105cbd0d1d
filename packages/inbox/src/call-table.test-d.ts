import type { CallTableMismatches, CallTableOf } from "@pigeonhole/client-core";
import type { calls, paths } from "@pigeonhole/inbox-types";
import { describe, expectTypeOf, it } from "vitest";

describe("the generated call table", () => {
  it("agrees, entry by entry, with the table the spec's paths derive", () => {
    expectTypeOf<CallTableMismatches<calls, CallTableOf<paths>>>().toBeNever();
  });
});
