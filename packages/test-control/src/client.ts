import {
  type ClientOptions,
  createApiClient,
  PigeonholeError,
  type RequestOptions,
  readEnv,
  type TokenPage,
  tokenCursor,
} from "@pigeonhole/client-core";
import type { calls } from "@pigeonhole/test-control-types";
import type { TestControlApi } from "./api.js";
import { type ClockControl, clockControl } from "./clock.js";
import { errorFromResponse } from "./errors.js";
import { type ExtractFromMessage, extractControl } from "./extract.js";
import { type FaultControl, faultControl } from "./faults.js";
import { type Reset, resetControl } from "./reset.js";
import { type WaitControl, waitControl } from "./wait.js";

/** The server's test-control key when it was given none: the one of a server running locally. */
export const DEFAULT_TEST_CONTROL_KEY = "pigeonhole-test-control-dev";

/** Options of `createTestControl`; every one has a default. */
export interface TestControlOptions extends Omit<ClientOptions, "apiKey"> {
  /**
   * The server's test-control key, sent as `Authorization: Bearer <key>`. Default: `PIGEONHOLE_TEST_CONTROL_KEY`
   * (the variable the server reads too), then `pigeonhole-test-control-dev`, a local server's default.
   */
  key?: string | undefined;
}

/**
 * The Pigeonhole server's test control. The helpers cover what a test reaches for: `clock`, `faults`,
 * `waitForMessage`, `waitForWebhookDelivery`, `extract` and `reset`. Every operation of the test-control spec is
 * also callable directly, in both styles: `GET(path, init)` resolves to `{ data, error, response }`, and
 * `get(path, init)` to the data or throws one of this package's errors.
 */
export interface TestControl extends TestControlApi, WaitControl {
  /** Read, set, freeze and advance the server's clock. */
  readonly clock: ClockControl;
  /** Make the next matching requests, webhook deliveries or outbound mails go wrong; list and remove the faults. */
  readonly faults: FaultControl;
  /** The links and one-time codes of a message. */
  readonly extract: ExtractFromMessage;
  /** Wipes one API key's data, or everything. */
  readonly reset: Reset;
  /** A new test control with these options changed and the rest kept. */
  withOptions(options: TestControlOptions): TestControl;
}

const testControlService = {
  factory: "createTestControl",
  apiKeyEnv: "PIGEONHOLE_TEST_CONTROL_KEY",
  baseUrlEnv: "PIGEONHOLE_TEST_CONTROL_URL",
  defaultBaseUrl: "http://127.0.0.1:4010",
  pageCursor: tokenCursor,
  errors: { fromResponse: errorFromResponse },
};

/**
 * Creates a client of the server's test control. The key comes from `options.key`, `PIGEONHOLE_TEST_CONTROL_KEY`
 * or a local server's default, `pigeonhole-test-control-dev`; the address from `options.baseUrl`,
 * `PIGEONHOLE_TEST_CONTROL_URL`, or a server running locally at http://127.0.0.1:4010 (test control answers on the
 * Forum API's port too).
 */
export function createTestControl(options: TestControlOptions = {}): TestControl {
  const key = options.key ?? readEnv(testControlService.apiKeyEnv) ?? DEFAULT_TEST_CONTROL_KEY;
  if (key.trim() === "") {
    throw new PigeonholeError("The test-control key is empty: pass { key } to createTestControl() or leave it out.");
  }
  const { key: _, ...clientOptions } = options;
  return withHelpers(
    createApiClient<calls, TokenPage, RequestOptions>(testControlService, { ...clientOptions, apiKey: key }),
  );
}

/** Adds the helpers to `api`, and to the clients its `withOptions` derives. */
function withHelpers(api: TestControlApi): TestControl {
  const derive = api.withOptions.bind(api);
  return Object.assign(api, {
    clock: clockControl(api),
    faults: faultControl(api),
    extract: extractControl(api),
    reset: resetControl(api),
    ...waitControl(api),
    withOptions: ({ key, ...overrides }: TestControlOptions) =>
      withHelpers(derive(key === undefined ? overrides : { ...overrides, apiKey: key })),
  });
}
