import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { swaks } from "../src/index.ts";

// A server that takes connections and never greets: swaks waits for the banner until it is stopped.
const sockets = new Set<Socket>();
const silent = createServer((socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen({ host: "127.0.0.1", port: 0 }, resolve));
  port = (silent.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of sockets) {
    socket.destroy();
  }
  await new Promise((resolve) => silent.close(resolve));
});

describe("swaks", () => {
  it("answers the exit code and the conversation when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen({ host: "127.0.0.1", port: 0 }, resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await swaks(["--server", `127.0.0.1:${closedPort}`, "--to", "a@example.net"]);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toMatch(new RegExp(`Trying 127\\.0\\.0\\.1:${closedPort}`));
  });

  it("is killed after its time runs out, and says what it printed", async () => {
    const startedAt = Date.now();
    // Long enough for swaks (Perl) to start and connect on a loaded machine, so that there is output to report.
    await expect(
      swaks(["--server", `127.0.0.1:${port}`, "--to", "a@example.net"], { timeoutMs: 4_000 }),
    ).rejects.toThrow(/did not finish within 4000 ms[\s\S]*Connected to 127\.0\.0\.1/);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });
});
