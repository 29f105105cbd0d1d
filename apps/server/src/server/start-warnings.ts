import type { StartContext } from "./start-context.ts";

/**
 * Says at every start, one warning line each, what the options that lower the server's guard allow while they are
 * on, and how to turn them off: they suit development and tests, and a production log should show them.
 */
export function warnOfLoweredGuards({ config }: StartContext): void {
  if (config.allowPrivateWebhooks) {
    config.logger.warn(
      "private webhook destinations allowed: any key holder can have this server send requests to loopback and " +
        "private-network addresses, such as this machine's other services and cloud metadata endpoints",
      {
        option: "--allow-private-webhooks",
        turn_off: "start without --allow-private-webhooks (startServer: allowPrivateWebhooks: false)",
      },
    );
  }
  if (config.testControl) {
    config.logger.warn(
      "test control on: whoever has its key can read every pod's mail, set the clock, inject faults and wipe all data",
      {
        option: "--test-control",
        path: "/_test",
        turn_off:
          "start with --no-test-control (startServer: testControl: false); it is off by default when the development " +
          "keys are (on PostgreSQL, or with --no-dev-keys)",
      },
    );
  }
}
