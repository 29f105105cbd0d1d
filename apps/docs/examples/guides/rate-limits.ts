import { createInboxClient, RateLimitError } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// A 429 is retried for you (up to maxRetries), after the Retry-After
// the service sent. Once the retries are used up it surfaces as a
// RateLimitError.
try {
  await inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: "support@pigeonhole.test" } },
    body: { to: "ada@example.com", subject: "Weekly digest" },
  });
} catch (error) {
  if (!(error instanceof RateLimitError)) {
    throw error;
  }
  // The daily send limit and the per-minute request limit answer the
  // same status; the code tells them apart.
  const body = error.body as
    | { error?: { details?: { code?: string } } }
    | undefined;
  const code = body?.error?.details?.code;
  console.log(
    code === "SEND_LIMIT_EXCEEDED"
      ? "daily send limit reached"
      : "too many requests this minute",
  );
  console.log(
    `retry after ${error.retryAfter} s`,
    error.headers.get("x-ratelimit-reset"),
  );
}

// Every response carries the budget; the result style exposes the
// response to read it.
const { response } = await inbox.GET("/v0/inboxes", {
  params: { query: { limit: 1 } },
});
console.log(
  response.headers.get("x-ratelimit-remaining"),
  "of",
  response.headers.get("x-ratelimit-limit"),
  "left",
);
