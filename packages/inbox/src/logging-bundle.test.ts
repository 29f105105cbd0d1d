// Logging is opt-in so that a browser bundle of a client that does not log holds none of its code.
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/** The minified browser bundle of a page that runs `code` with this package imported as `inbox`. */
async function bundle(code: string): Promise<string> {
  const result = await build({
    stdin: { contents: `import * as inbox from "./index.ts";\n${code}`, resolveDir: import.meta.dirname, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

// Strings that only the logger holds: its messages and its test for credential names.
const LOGGER_ONLY = ["retrying request", "gave up retrying", "[pigeonhole] ", "password"];

describe("the browser bundle", () => {
  it("holds no logging code for a client without a logger", async () => {
    const code = await bundle(`console.log(await inbox.createInboxClient({ apiKey: "k" }).get("/v0/inboxes"));`);
    expect(code).toContain("Idempotency-Key");
    for (const text of LOGGER_ONLY) {
      expect(code).not.toContain(text);
    }
  });

  it("holds it once a client is given one", async () => {
    const code = await bundle(
      `console.log(await inbox.createInboxClient({ apiKey: "k", logger: inbox.createLogger() }).get("/v0/inboxes"));`,
    );
    for (const text of LOGGER_ONLY) {
      expect(code).toContain(text);
    }
  });
});
