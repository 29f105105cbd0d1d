import { magicAddressOutcome } from "./simulated-outcome.ts";
import { startSimulatingServer } from "./simulating-test-server.ts";

// Runs the simulating server in a process of its own, for the crash test: `node simulating-server-main.ts
// <database> <api key> <retry delay ms>`; prints `{"url": ...}` once it listens, and runs until it is killed.

const [database, apiKey, retryDelay] = process.argv.slice(2);
if (database === undefined || apiKey === undefined || retryDelay === undefined) {
  throw new Error("usage: simulating-server-main.ts <database> <api key> <retry delay ms>");
}
const server = await startSimulatingServer({
  simulateOutcome: magicAddressOutcome,
  database,
  apiKey,
  retryDelaysMs: [Number(retryDelay)],
  claimMs: 2_000,
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
