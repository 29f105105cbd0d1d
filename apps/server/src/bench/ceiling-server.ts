// The ceiling of the benchmark: a trivial Hono handler on the same server adapter, with no auth, validation or
// storage. Prints its address on stdout.
import { Hono } from "hono";
import { listen } from "../http/listen.ts";

const app = new Hono();
app.get("/ceiling", (c) => c.json({ success: true, posts: [] }));

const server = await listen(app, "127.0.0.1", 0);
process.stdout.write(`${server.url}\n`);
process.on("SIGTERM", () => {
  server.close().then(() => process.exit(0));
});
