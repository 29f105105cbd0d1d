// Serves one API's built reference page and bundle on 127.0.0.1: `node ../serve-reference.mjs <port>`,
// run from the API's folder. The docs site replaces this once it exists; it exists so the bundle can be
// browsed with nothing but what the spec package already builds.
import { createReadStream, existsSync } from "node:fs";
import { createServer } from "node:http";
import { basename, resolve } from "node:path";

const port = Number(process.argv[2] ?? 0);
const api = basename(process.cwd());
const files = {
  "/": ["dist/reference.html", "text/html; charset=utf-8"],
  "/openapi.json": ["dist/openapi.json", "application/json"],
};

const server = createServer((req, res) => {
  const entry = files[new URL(req.url ?? "/", "http://x").pathname];
  if (!entry || !existsSync(entry[0])) {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  res.writeHead(200, { "content-type": entry[1] });
  createReadStream(resolve(entry[0])).pipe(res);
});

server.listen(port, "127.0.0.1", () => {
  const { port: bound } = server.address();
  process.stdout.write(`${api} API reference: http://127.0.0.1:${bound}/\n`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
