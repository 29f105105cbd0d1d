import { describe, expect, it } from "vitest";
import { redactHeaders } from "./logger.js";

describe("redactHeaders", () => {
  it("hides credentials and keeps the rest", () => {
    const headers = new Headers({
      Authorization: "Bearer sk_live_123",
      "Proxy-Authorization": "Basic abc",
      "api-key": "k1",
      "X-API-Key": "k2",
      Cookie: "session=s",
      "Set-Cookie": "session=s",
      "X-Webhook-Secret": "whsec_1",
      "X-CSRF-Token": "t",
      "Content-Type": "application/json",
      "Idempotency-Key": "8c3e",
    });
    expect(redactHeaders(headers)).toEqual({
      authorization: "***",
      "proxy-authorization": "***",
      "api-key": "***",
      "x-api-key": "***",
      cookie: "***",
      "set-cookie": "***",
      "x-webhook-secret": "***",
      "x-csrf-token": "***",
      "content-type": "application/json",
      "idempotency-key": "8c3e",
    });
  });
});
