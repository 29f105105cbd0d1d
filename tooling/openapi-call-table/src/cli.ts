#!/usr/bin/env node
// openapi-call-table <bundle.json> -o <calls.ts> [--check]: writes the call table of a bundled spec, or with --check
// exits 1 when the file on disk differs from what it would write.
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { callTable } from "./call-table.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { output: { type: "string", short: "o" }, check: { type: "boolean", default: false } },
});
const [input] = positionals;
if (input === undefined || values.output === undefined) {
  process.stderr.write("usage: openapi-call-table <bundle.json> -o <calls.ts> [--check]\n");
  process.exit(2);
}
const text = callTable(JSON.parse(readFileSync(input, "utf8")));
if (values.check) {
  let current = "";
  try {
    current = readFileSync(values.output, "utf8");
  } catch {
    // A missing file differs like any other.
  }
  if (current !== text) {
    process.stderr.write(`${values.output} does not match ${input}.\n`);
    process.exit(1);
  }
} else {
  writeFileSync(values.output, text);
}
