import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// One page, newest first.
const page = await inbox.get("/v0/inboxes", {
  params: { query: { limit: 20 } },
});
console.log(
  `${page.count} inboxes on this page, more: ${page.next_page_token !== null}`,
);

// Every inbox: the client follows `next_page_token` for you.
for await (const { inbox_id, display_name } of inbox.paginate(
  "/v0/inboxes",
  {},
)) {
  console.log(inbox_id, display_name);
}
