import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  createInboxClient,
  NotFoundError,
  RateLimitError,
} from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Throwing style (lowercase methods): the data, or an exception whose
// class says what went wrong.
try {
  await inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: "support@pigeonhole.test" } },
    body: { to: "ada@", subject: "Hello" },
  });
} catch (error) {
  if (error instanceof BadRequestError) {
    // A 400 in the Inbox API's envelope: error.body is its
    // ErrorResponse, always there, so no `?.` is needed.
    const { field, code } = error.body.error.details;
    console.log(error.status, field, code, error.requestId);
  } else if (error instanceof NotFoundError) {
    console.log("no such inbox for this key");
  } else if (error instanceof AuthenticationError) {
    console.log("check PIGEONHOLE_INBOX_API_KEY");
  } else if (error instanceof RateLimitError) {
    // A 429 may come from a proxy, without the envelope: here
    // error.body is the ErrorResponse or undefined.
    console.log(
      `slow down, retry in ${error.retryAfter ?? "a few"} seconds`,
      error.body?.error.details.code,
    );
  } else if (error instanceof APIError) {
    // Any other answer; rawBody is the body as it came.
    console.log(`HTTP ${error.status}`, error.rawBody);
  } else if (error instanceof APIConnectionError) {
    console.log("no answer from the service (network or timeout)");
  } else {
    throw error;
  }
}

// Result style (uppercase methods, exactly openapi-fetch): never throws
// for an HTTP error.
const { data, error } = await inbox.GET("/v0/inboxes/{inbox_id}", {
  params: { path: { inbox_id: "nobody@pigeonhole.test" } },
});
if (error) {
  // Typed from the spec: branch on the UPPER_SNAKE code, show the
  // message to people.
  console.log(
    error.error.type,
    error.error.details.code,
    error.error.message,
  );
} else {
  console.log(data.inbox_id);
}
