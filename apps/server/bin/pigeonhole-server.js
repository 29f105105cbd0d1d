#!/usr/bin/env node
// The command a package manager links at install time, before anything is built: it loads the built CLI.
// Plain JavaScript, so it needs no build itself and can explain a missing build or an unsupported Node.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write("pigeonhole-server: the CLI is not built yet; run `pnpm build` first.\n");
  process.exit(1);
}
try {
  await import(cli.href);
} catch (error) {
  // The CLI checks the Node version before it opens a database; its message says all there is to say.
  if (error instanceof Error && error.name === "UnsupportedNodeError") {
    process.stderr.write(`pigeonhole-server: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
