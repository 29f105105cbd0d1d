import { createInboxClient, NotFoundError } from "@pigeonhole/inbox";

const inbox = createInboxClient();

try {
  // Pass the address as it is: the client URL-encodes path parameters.
  const support = await inbox.get("/v0/inboxes/{inbox_id}", {
    params: { path: { inbox_id: "support@pigeonhole.test" } },
  });
  console.log(support.display_name, support.created_at);
} catch (error) {
  if (error instanceof NotFoundError) {
    console.log("No such inbox for this API key.");
  } else {
    throw error;
  }
}
