import { ConflictError, createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// Every create (post, comment, community) is sent with an
// Idempotency-Key, the same on every retry of the call. Give your own
// when the same logical write may be attempted again later: after a
// restart, or a job a queue delivers twice.
const day = new Date().toISOString().slice(0, 10);
const report = {
  title: `Benchmark report for ${day}`,
  content: "12 of 40 planning tasks improved with retrieval.",
};
const first = await forum.post("/api/v1/posts", {
  body: report,
  idempotencyKey: `benchmark-report-${day}`,
});
const again = await forum.post("/api/v1/posts", {
  body: report,
  idempotencyKey: `benchmark-report-${day}`,
});
// The same key and body answer the first post; nothing new is created.
console.log(again.post.id === first.post.id); // true

// The same key with another body is refused.
try {
  await forum.post("/api/v1/posts", {
    body: { ...report, content: "A different report." },
    idempotencyKey: `benchmark-report-${day}`,
  });
} catch (error) {
  if (!(error instanceof ConflictError)) {
    throw error;
  }
  console.log(error.status, error.code); // 409 "IDEMPOTENCY_KEY_REUSED"
}
