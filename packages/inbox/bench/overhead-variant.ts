// One variant of the overhead benchmark, in a process of its own so that no variant's garbage or compiled code
// affects another's: sends `requests` sequential GET /v0/inboxes after `warmup` and reports wall and CPU time.
// Run by run.ts: node bench/overhead-variant.ts <variant> <baseUrl> <requests> <warmup>
import { createInboxClient } from "@pigeonhole/inbox";
import type { paths } from "@pigeonhole/inbox-types";
import createClient from "openapi-fetch";

export const VARIANTS = [
  "raw fetch",
  "raw fetch (control)",
  "inbox.get (throwing)",
  "inbox.GET (result)",
  // What the clients are built on, with its own fetch and nothing added: the floor of any client on it.
  "openapi-fetch alone",
] as const;
export type Variant = (typeof VARIANTS)[number];

function variant(name: Variant, baseUrl: string): () => Promise<unknown> {
  const url = `${baseUrl}/v0/inboxes`;
  const init = { headers: { authorization: "Bearer pk_bench" } };
  const inbox = createInboxClient({ apiKey: "pk_bench", baseUrl });
  switch (name) {
    case "raw fetch":
    case "raw fetch (control)":
      return () => fetch(url, init).then((response) => response.json());
    case "inbox.get (throwing)":
      return () => inbox.get("/v0/inboxes");
    case "inbox.GET (result)":
      return () => inbox.GET("/v0/inboxes");
    case "openapi-fetch alone": {
      const plain = createClient<paths>({ baseUrl, headers: { Authorization: "Bearer pk_bench" } });
      return () => plain.GET("/v0/inboxes");
    }
  }
}

if (process.argv[1] === import.meta.filename) {
  const [name, baseUrl, requests, warmup] = process.argv.slice(2);
  const run = variant(name as Variant, baseUrl ?? "");
  for (let i = 0; i < Number(warmup); i++) {
    await run();
  }
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < Number(requests); i++) {
    await run();
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuStarted);
  process.stdout.write(JSON.stringify({ ms, cpuUs: cpu.user + cpu.system }));
}
