import { timingSafeEqual } from "node:crypto";
import type { Hono } from "hono";
import type { OperationHandlerMap } from "../http/operation-route.ts";
import { createServiceApp } from "../http/service-app.ts";
import type { ServiceEnv } from "../http/service-env.ts";
import { sha256Hex } from "../ids.ts";
import type { ServerLogger } from "../logger.ts";
import { compileSpecOperations } from "../spec/request-validator.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { TestControlProblemCode } from "./test-control-errors.ts";
import { formatTestControlProblem } from "./test-control-errors.ts";
import type { TestControlCaller } from "./test-control-handlers.ts";

/** Every path of test control starts with this. */
export const TEST_CONTROL_PREFIX = "/_test";

/** Test control's bodies are small JSON documents. */
const MAX_BODY_BYTES = 64 * 1024;

const CALLER: TestControlCaller = { testControl: true };

export interface TestControlAppOptions {
  /** The test-control key; inbox and forum keys are not it. */
  key: string;
  /** Handlers by operation id: the clock, faults and reset, and the wait and extract handlers. */
  handlers: OperationHandlerMap<TestControlCaller>;
  logger: ServerLogger;
}

/** Whether a request path belongs to test control. */
export const isTestControlPath = (path: string): boolean =>
  path === TEST_CONTROL_PREFIX || path.startsWith(`${TEST_CONTROL_PREFIX}/`);

/**
 * Test control as a Hono app, served under `/_test` on both ports: its own key, no rate limit, requests validated
 * against its spec, errors in the inbox envelope. Every operation of its spec must have a handler.
 */
export function createTestControlApp(options: TestControlAppOptions): Hono<ServiceEnv<TestControlCaller>> {
  const keyHash = Buffer.from(sha256Hex(options.key), "hex");
  return createServiceApp<TestControlCaller, TestControlProblemCode>({
    service: "test-control",
    operations: compileSpecOperations(loadSpecBundle("test-control"), "test-control"),
    handlers: options.handlers,
    formatProblem: formatTestControlProblem,
    // Compared as hashes, in constant time: the key's length leaks nothing either.
    async authenticate(apiKey) {
      return timingSafeEqual(Buffer.from(sha256Hex(apiKey), "hex"), keyHash) ? CALLER : null;
    },
    maxBodyBytes: MAX_BODY_BYTES,
    logger: options.logger,
  });
}
