import { createInboxClient, NotFoundError } from "@pigeonhole/inbox";

const inbox = createInboxClient();

try {
  const hosted = await inbox.get("/v0/domains/{domain_id}", {
    params: { path: { domain_id: "pigeonhole.test" } },
  });
  for (const record of hosted.records) {
    console.log(`${record.type} ${record.name} ${record.value}`);
  }
  console.log(hosted.domain, hosted.status);
} catch (error) {
  if (error instanceof NotFoundError) {
    console.log("The server does not host this domain.");
  } else {
    throw error;
  }
}
