import { createInboxClient } from "@pigeonhole/inbox";
import { expect, it } from "vitest";
import { useLocalServer } from "./local-server.ts";

const { server, tc, inbox } = await useLocalServer();

it("wipes one key's data and leaves another's", async () => {
  // A second tenant: a key of its own, which sees only its own data.
  const otherKey = await server.createApiKey("inbox", {
    name: "other",
  });
  const other = createInboxClient({
    baseUrl: server.inbox.url,
    apiKey: otherKey,
  });
  await inbox.post("/v0/inboxes", { body: { username: "ada" } });
  await other.post("/v0/inboxes", { body: { username: "grace" } });

  await tc.reset({ api_key: otherKey });

  expect((await other.get("/v0/inboxes")).count).toBe(0);
  expect((await inbox.get("/v0/inboxes")).count).toBe(1);
});
