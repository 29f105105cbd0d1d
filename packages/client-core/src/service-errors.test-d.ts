import { describe, expectTypeOf, it } from "vitest";
import {
  type BoardErrorResponse,
  type BoardNotFoundError,
  type boardErrors,
  type MailErrorResponse,
  type MailNotFoundError,
  mailErrors,
} from "../test/two-services.js";
import type { APIError, PigeonholeError } from "./index.js";

type MailNotFound = MailNotFoundError;
type BoardNotFound = BoardNotFoundError;

describe("a service's error classes", () => {
  it("type body as the envelope where the class guarantees it", () => {
    const caught: unknown = undefined;
    if (caught instanceof mailErrors.NotFoundError) {
      expectTypeOf(caught.body).toEqualTypeOf<MailErrorResponse>();
      expectTypeOf(caught.service).toEqualTypeOf<"mail">();
      expectTypeOf(caught.name).toEqualTypeOf<"NotFoundError">();
    }
    for (const Class of [
      mailErrors.BadRequestError,
      mailErrors.AuthenticationError,
      mailErrors.PermissionDeniedError,
      mailErrors.ConflictError,
      mailErrors.PayloadTooLargeError,
    ]) {
      if (caught instanceof Class) {
        expectTypeOf(caught.body).toEqualTypeOf<MailErrorResponse>();
      }
    }
  });

  it("type body as the envelope or undefined where a proxy may have answered", () => {
    const caught: unknown = undefined;
    if (caught instanceof mailErrors.APIError) {
      expectTypeOf(caught.body).toEqualTypeOf<MailErrorResponse | undefined>();
      expectTypeOf(caught.rawBody).toEqualTypeOf<unknown>();
    }
    if (caught instanceof mailErrors.RateLimitError) {
      expectTypeOf(caught.body).toEqualTypeOf<MailErrorResponse | undefined>();
      expectTypeOf(caught.retryAfter).toEqualTypeOf<number | null>();
    }
    if (caught instanceof mailErrors.InternalServerError) {
      expectTypeOf(caught.body).toEqualTypeOf<MailErrorResponse | undefined>();
    }
  });

  it("are all the service's APIError, the core's APIError and PigeonholeError", () => {
    expectTypeOf<MailNotFound>().toExtend<InstanceType<typeof mailErrors.APIError>>();
    expectTypeOf<InstanceType<typeof mailErrors.RateLimitError>>().toExtend<InstanceType<typeof mailErrors.APIError>>();
    expectTypeOf<InstanceType<typeof mailErrors.APIError>>().toExtend<APIError<MailErrorResponse>>();
    expectTypeOf<MailNotFound>().toExtend<PigeonholeError>();
  });

  it("need the envelope to be built where they guarantee it", () => {
    // @ts-expect-error a NotFoundError always carries the envelope
    void new mailErrors.NotFoundError(404, undefined);
    void new mailErrors.InternalServerError(502, "Bad Gateway");
  });
});

describe("two services' error classes", () => {
  it("never match each other: narrowing one's error by the other's class leaves nothing", () => {
    const boardMissing = {} as BoardNotFound;
    if (boardMissing instanceof mailErrors.NotFoundError) {
      expectTypeOf(boardMissing).toBeNever();
    }
    const boardAny = {} as InstanceType<typeof boardErrors.APIError>;
    if (boardAny instanceof mailErrors.APIError) {
      expectTypeOf(boardAny).toBeNever();
    }
  });

  it("do not accept each other's errors", () => {
    expectTypeOf<BoardNotFound>().not.toExtend<MailNotFound>();
    expectTypeOf<MailNotFound>().not.toExtend<BoardNotFound>();
    const boardMissing = {} as BoardNotFound;
    // @ts-expect-error the board service's 404 is not the mail service's
    const asMail: MailNotFound = boardMissing;
    void asMail;
  });

  it("keep each envelope", () => {
    expectTypeOf<BoardNotFound["body"]>().toEqualTypeOf<BoardErrorResponse>();
    expectTypeOf<MailNotFound["body"]>().toEqualTypeOf<MailErrorResponse>();
  });
});
