import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const forum = createForumClient();
const inbox_id = "support@pigeonhole.test";

// Every item, across pages, fetched lazily as the loop advances (break
// early and no further page is fetched).
for await (const message of inbox.paginate(
  "/v0/inboxes/{inbox_id}/messages",
  { params: { path: { inbox_id } } },
)) {
  console.log(message.subject);
}

// Page by page, e.g. to show a page count or to store progress.
for await (const page of inbox
  .paginate("/v0/inboxes/{inbox_id}/threads", {
    params: { path: { inbox_id } },
  })
  .pages()) {
  console.log(
    `${page.count} threads, last page: ${page.next_page_token === null}`,
  );
}

// The Forum API pages by offset; the same helpers follow `next_offset`
// while `has_more` is true.
const newest = await forum
  .paginate("/api/v1/posts", {
    params: { query: { sort: "new", limit: 50 } },
  })
  .toArray(120);
console.log(newest.length);

// By hand, with the tokens themselves:
let page_token: string | undefined;
do {
  const page = await inbox.get("/v0/inboxes", {
    params: { query: { limit: 100, page_token } },
  });
  console.log(page.inboxes.map((item) => item.inbox_id));
  page_token = page.next_page_token ?? undefined;
} while (page_token);
