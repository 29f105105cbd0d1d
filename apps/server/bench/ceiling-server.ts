// The ceiling of the benchmark: a trivial Hono handler on the same server adapter, with no auth, validation or
// storage. Prints its address on stdout.
import { Hono } from "hono";
import { listen } from "../src/http/listen.ts";
import { benchBytes } from "./bench-bytes.ts";

const app = new Hono();
app.get("/ceiling", (c) => c.json({ success: true, posts: [] }));

// The same bytes as the benchmark's attachments of that size, from memory: the ceiling of a download.
const contents = new Map<number, Uint8Array<ArrayBuffer>>();
app.get("/ceiling/bytes/:size", (c) => {
  const size = Number(c.req.param("size"));
  let content = contents.get(size);
  if (content === undefined) {
    content = benchBytes(size);
    contents.set(size, content);
  }
  return c.body(content, 200, {
    "Content-Type": "application/octet-stream",
    "Content-Disposition": 'attachment; filename="bench.bin"',
  });
});

const server = await listen(app, "127.0.0.1", 0);
process.stdout.write(`${server.url}\n`);
process.on("SIGTERM", () => {
  server.close().then(() => process.exit(0));
});
