import { BadRequestError, createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The domains this server hosts: the only ones inboxes live in.
for await (const domain of inbox.paginate("/v0/domains")) {
  console.log(domain.domain, domain.status);
  for (const record of domain.records) {
    console.log(
      `  publish ${record.type} ${record.name}: ${record.value}`,
    );
  }
}

// Any other domain is refused: no one takes an address of a domain
// the server does not host.
try {
  await inbox.post("/v0/inboxes", {
    body: { username: "cfo", domain: "partner.example" },
  });
} catch (error) {
  if (!(error instanceof BadRequestError)) {
    throw error;
  }
  console.log(error.status, error.code, error.body.error.details.field);
}
