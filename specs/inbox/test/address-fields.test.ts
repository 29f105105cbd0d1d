// One address rule everywhere: every field that holds addresses, in requests and in answers, is the `EmailAddress`
// schema, so that what the service answers is what it would take back. Checked against the bundle.

import { type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";

const { obj, spec } = loadBundle(new URL("../dist/openapi.json", import.meta.url));

const properties = (schemaName: string): JsonObject => obj(spec, "components", "schemas", schemaName, "properties");
const property = (schemaName: string, name: string): JsonObject => obj(properties(schemaName), name);
const EMAIL_ADDRESS = "#/components/schemas/EmailAddress";

/** Schema and property of every list of addresses. */
const ADDRESS_LISTS = [
  ["Message", "to"],
  ["Message", "cc"],
  ["Message", "bcc"],
  ["Message", "reply_to"],
  ["MessageItem", "to"],
  ["MessageItem", "cc"],
  ["MessageItem", "bcc"],
  ["MessageSent", "recipients"],
  ["MessageComplaint", "recipients"],
  ["Thread", "participants"],
  ["ThreadItem", "participants"],
  ["Webhook", "inbox_ids"],
  ["CreateWebhookRequest", "inbox_ids"],
  ["UpdateWebhookRequest", "inbox_ids"],
  ["EventSubscription", "inbox_ids"],
] as const;

/** Schema and property of every single address. */
const ADDRESSES = [
  ["Inbox", "inbox_id"],
  ["Message", "inbox_id"],
  ["MessageItem", "inbox_id"],
  ["Thread", "inbox_id"],
  ["ThreadItem", "inbox_id"],
  ["MessageSent", "inbox_id"],
  ["RecipientDelivery", "address"],
  ["RecipientReply", "address"],
] as const;

describe("address fields", () => {
  it.each(ADDRESS_LISTS)("%s.%s holds EmailAddress items", (schemaName, name) => {
    expect(refOf(property(schemaName, name).items)).toBe(EMAIL_ADDRESS);
  });

  it.each(ADDRESSES)("%s.%s is an EmailAddress", (schemaName, name) => {
    // Read as written, without following the reference.
    expect(refOf(properties(schemaName)[name])).toBe(EMAIL_ADDRESS);
  });

  it("send, cc, bcc and reply_to of a send are address lists of the same rule", () => {
    for (const name of ["to", "cc", "bcc", "reply_to"]) {
      expect(refOf(properties("SendMessageRequest")[name])).toBe("#/components/schemas/AddressList");
    }
  });
});
