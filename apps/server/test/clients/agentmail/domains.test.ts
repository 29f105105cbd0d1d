import { generateKeyPairSync } from "node:crypto";
import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile({ domains: ["pigeonhole.test", "mail.example.com"] });

const failureOf = async (call: Promise<unknown>): Promise<AgentMailError> => {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentMailError);
  return error as AgentMailError;
};

describe("domains through the official agentmail SDK", () => {
  it("lists and gets the hosted domains with the DNS records to publish", async () => {
    const listed = await served.sdk.domains.list();
    expect(listed.domains.map((domain) => domain.domainId)).toEqual(["pigeonhole.test", "mail.example.com"]);
    const domain = await served.sdk.domains.get("mail.example.com");
    expect(domain).toMatchObject({ domainId: "mail.example.com", domain: "mail.example.com", status: "VERIFIED" });
    expect(domain.records.map((record) => [record.type, record.name, record.value])).toEqual([
      ["MX", "mail.example.com", "mail.example.com"],
      ["TXT", "mail.example.com", "v=spf1 mx ~all"],
      ["TXT", "_dmarc.mail.example.com", "v=DMARC1; p=none"],
    ]);
  });

  it("answers the records as a zone file", async () => {
    const zone = await served.sdk.domains.getZoneFile("mail.example.com");
    expect(new TextDecoder().decode(await zone.arrayBuffer())).toBe(
      [
        "$ORIGIN mail.example.com.",
        "@ 3600 IN MX 10 mail.example.com.",
        '@ 3600 IN TXT "v=spf1 mx ~all"',
        '_dmarc 3600 IN TXT "v=DMARC1; p=none"',
        "",
      ].join("\n"),
    );
    expect((await failureOf(served.sdk.domains.getZoneFile("partner.example"))).statusCode).toBe(404);
  });

  it("leaves domains to the operator: creating another is a documented 400, updating and deleting are not offered", async () => {
    const created = await failureOf(served.sdk.domains.create({ domain: "partner.example", feedbackEnabled: false }));
    expect(created.statusCode).toBe(400);
    expect(created.body).toMatchObject({
      error: { details: { code: "DOMAINS_MANAGED_BY_OPERATOR", field: "domain" } },
    });
    // A hosted domain is already there: creating it answers it, unchanged.
    expect(await served.sdk.domains.create({ domain: "pigeonhole.test", feedbackEnabled: false })).toMatchObject({
      domainId: "pigeonhole.test",
    });
    expect((await failureOf(served.sdk.domains.update("pigeonhole.test", {}))).statusCode).toBe(405);
    expect((await failureOf(served.sdk.domains.delete("pigeonhole.test"))).statusCode).toBe(405);
  });

  it("verifies a hosted domain (nothing to do) and refuses to verify one it does not host", async () => {
    await served.sdk.domains.verify("pigeonhole.test");
    expect((await failureOf(served.sdk.domains.verify("partner.example"))).statusCode).toBe(404);
  });
});

describe("the zone file of a domain the server signs for", () => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signing = agentMailServerForFile({
    domains: ["mail.example.com"],
    smtpRelay: "smtp://127.0.0.1:9",
    dkim: {
      domain: "mail.example.com",
      selector: "pigeonhole",
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    },
  });

  it("publishes the DKIM key's TXT record in strings of at most 255 characters", async () => {
    const domain = await signing.sdk.domains.get("mail.example.com");
    const dkim = domain.records.find((record) => record.name === "pigeonhole._domainkey.mail.example.com");
    expect(dkim?.value).toMatch(/^v=DKIM1; k=rsa; p=/);
    const zone = new TextDecoder().decode(
      await (await signing.sdk.domains.getZoneFile("mail.example.com")).arrayBuffer(),
    );
    const line = zone.split("\n").find((each) => each.startsWith("pigeonhole._domainkey 3600 IN TXT "));
    const strings = [...(line ?? "").matchAll(/"([^"]*)"/g)].map((match) => match[1] ?? "");
    expect(strings.length).toBeGreaterThan(1);
    expect(strings.every((part) => part.length <= 255)).toBe(true);
    expect(strings.join("")).toBe(dkim?.value);
  });
});
