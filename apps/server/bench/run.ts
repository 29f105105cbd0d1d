// Throughput, latency and CPU use of the server's main operations (attachment downloads included) on SQLite and on
// PostgreSQL with one or more instances, each next to a trivial Hono handler as the ceiling, the latency of live
// events fanned out to many WebSocket subscribers, and mail received over SMTP and relayed through Postfix (as root;
// skipped when Postfix cannot start). Needs the built CLI and Linux.
// Usage: pnpm --filter @pigeonhole/server bench (builds first)
// BENCH_BACKENDS (sqlite,postgres), BENCH_INSTANCES (1,2), BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_POSTS
// (10000), BENCH_POOL_SIZE (the server's default) and BENCH_DATABASE_URL (an empty PostgreSQL database; by default a
// throw-away cluster) set the run; BENCH_SUBSCRIBERS (100), BENCH_EVENTS (200) and BENCH_EVENT_INTERVAL_MS (10)
// set the event fan-out; BENCH_SMTP_MESSAGES (500) the messages of each mail scenario. BENCH_SCENARIOS (everything)
// runs only the scenarios whose names hold one of its comma-separated, case-insensitive pieces, and the event fan-out
// and the mail scenarios only when a piece names them ("fan-out", "mail"): BENCH_SCENARIOS="list posts,vote" measures
// those two HTTP scenarios and nothing else.
// Message search: one inbox filled to 10,000 and then 100,000 messages, each size searched over HTTP next to getting
// one message (the part "message search").
// Webhook delivery: BENCH_WEBHOOK_MESSAGES (200) sends, one every BENCH_WEBHOOK_INTERVAL_MS (20), each raising
// message.sent and message.received for a receiver on 127.0.0.1; time from each send's 200 to the event's arrival,
// next to the send's own time (the part "webhook delivery").
import { runBenchmark } from "./benchmark.ts";

await runBenchmark(process.env);
