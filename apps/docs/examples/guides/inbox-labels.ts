import { BadRequestError, createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";

// The newest message the inbox received.
const {
  messages: [newest],
} = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
  params: {
    path: { inbox_id },
    query: { labels: ["received"], limit: 1 },
  },
});
if (newest === undefined) {
  throw new Error(`${inbox_id} has received nothing yet`);
}
const path = { inbox_id, message_id: newest.message_id };

// Labels of your own: any text of 1 to 64 characters.
const labelled = await inbox.patch(
  "/v0/inboxes/{inbox_id}/messages/{message_id}",
  { params: { path }, body: { add_labels: ["orders", "priority"] } },
);
console.log(labelled.labels);

// Several labels answer what carries all of them. A thread carries the
// labels of its messages, so threads filter the same way.
const urgent = await inbox.get("/v0/inboxes/{inbox_id}/threads", {
  params: {
    path: { inbox_id },
    query: { labels: ["orders", "priority"] },
  },
});
for (const thread of urgent.threads) {
  console.log(thread.subject, thread.labels);
}

// `sent` and `received` belong to the service.
try {
  await inbox.patch("/v0/inboxes/{inbox_id}/messages/{message_id}", {
    params: { path },
    body: { remove_labels: ["received"] },
  });
} catch (error) {
  if (!(error instanceof BadRequestError)) {
    throw error;
  }
  console.log(error.status, error.code); // 400 "SYSTEM_LABEL"
}
