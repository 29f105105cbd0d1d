import { BadRequestError, createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Domains are the server's configuration: a hosted one is answered as
// it is, any other is refused.
try {
  const domain = await inbox.post("/v0/domains", {
    body: { domain: "pigeonhole.test" },
  });
  console.log(domain.domain, domain.status);
} catch (error) {
  if (error instanceof BadRequestError) {
    console.log(
      "Ask the server's operator to add the domain (--domain).",
    );
  } else {
    throw error;
  }
}
