import { preview } from "astro";

export const DEFAULT_PORT = 4300;
export const DEFAULT_HOST = "127.0.0.1";

export interface ServeOptions {
  /** The site's folder (`apps/docs`), whose `dist/` is served. */
  root: string;
  host?: string;
  /** 0 lets the OS pick a free port. */
  port?: number;
}

export interface RunningSite {
  /** With a trailing slash: `http://127.0.0.1:4300/`. */
  url: string;
  close(): Promise<void>;
}

/** Serves the built site with Astro's own static server, which knows its layout (trailing slashes, 404 page). */
export async function serveSite({
  root,
  host = DEFAULT_HOST,
  port = DEFAULT_PORT,
}: ServeOptions): Promise<RunningSite> {
  const server = await preview({ root, logLevel: "warn", server: { host, port } });
  return { url: `http://${host}:${server.port}/`, close: () => server.stop() };
}

/** The port from `--port <n>` / `--port=<n>`, else `PORT`, else the default. */
export function resolvePort(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const index = argv.findIndex((arg) => arg === "--port" || arg.startsWith("--port="));
  const raw =
    index === -1 ? env.PORT : argv[index]?.includes("=") ? argv[index]?.slice("--port=".length) : argv[index + 1];
  if (raw === undefined || raw === "") {
    return DEFAULT_PORT;
  }
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`Invalid port ${JSON.stringify(raw)}: expected an integer from 0 to 65535.`);
  }
  return port;
}
