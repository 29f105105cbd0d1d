// Serves the built site (`dist/`) on 127.0.0.1: port 4300, or `PORT`, or `--port <n>`.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolvePort, serveSite } from "../src/lib/serve.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
if (!existsSync(new URL("../dist/index.html", import.meta.url))) {
  process.stderr.write("No built site in dist/: run `pnpm --filter @pigeonhole/docs build` first.\n");
  process.exit(1);
}
const site = await serveSite({ root, port: resolvePort(process.argv.slice(2), process.env) });
process.stdout.write(`Pigeonhole docs: ${site.url}\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void site.close().then(() => process.exit(0));
  });
}
