import { createServer } from "node:net";

/**
 * A TCP port of 127.0.0.1 that was free a moment ago. Servers such as PostgreSQL and Postfix cannot be told to pick one
 * themselves, so another process may take it before the server binds it: callers retry on a clash.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0, exclusive: true }, () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === "string") {
          reject(new Error("127.0.0.1 gave no TCP port"));
        } else {
          resolve(address.port);
        }
      });
    });
  });
}
