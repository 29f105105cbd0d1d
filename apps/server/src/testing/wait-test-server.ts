import { Hono } from "hono";
import { systemClock } from "../clock.ts";
import { ApiProblem } from "../http/api-problem.ts";
import type { RunningServer } from "../http/listen.ts";
import { listen } from "../http/listen.ts";
import type { OperationHandler } from "../http/operation-route.ts";
import { compileAddressRule } from "../inbox/address-rule.ts";
import { createInboxApp } from "../inbox/inbox-app.ts";
import { PageTokens } from "../inbox/page-token.ts";
import { WebhookDeliveryWorker } from "../inbox/webhooks/delivery-worker.ts";
import { ApiKeys } from "../keys/api-keys.ts";
import { silentLogger } from "../logger.ts";
import type { RunningSmtpListener } from "../mail/inbound/smtp-listener.ts";
import { startSmtpListener } from "../mail/inbound/smtp-listener.ts";
import { compileSpecOperations } from "../spec/request-validator.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { Storage } from "../storage/open-storage.ts";
import { openStorage } from "../storage/open-storage.ts";
import type { EventNotifications } from "../storage/postgres/event-notifications.ts";
import { createExtractHandlers } from "../test-control/extract/extract-handlers.ts";
import { formatTestControlProblem } from "../test-control/test-control-errors.ts";
import { notifyingOutbox } from "../test-control/wait/notifying-outbox.ts";
import { createWaitHandlers } from "../test-control/wait/wait-handlers.ts";
import { WaitWakeups } from "../test-control/wait/wait-wakeups.ts";
import { newTestDatabase } from "./test-database.ts";
import type { InboxClient } from "./test-server.ts";
import { inboxClient } from "./test-server.ts";

const TEST_CONTROL_KEY = "wait-test-control-key";

/** A server for the tests of wait and extract: the Inbox API, SMTP in, webhook delivery, and the three operations. */
export interface WaitTestServer {
  inbox: InboxClient;
  inboxUrl: string;
  /** Where `/_test/...` answers, and its key. */
  testControl: { url: string; key: string };
  smtp: { host: string; port: number };
  wakeups: WaitWakeups;
  close(): Promise<void>;
}

/**
 * The wait and extract operations served as test control serves them (validated against its spec, in its envelope),
 * handing each handler the request's abort signal, which ends a wait when the client goes away.
 */
function waitApp(storage: Storage, wakeups: WaitWakeups, key: string) {
  const handlers: Record<string, OperationHandler<unknown>> = {
    ...createWaitHandlers({ storage, wakeups }),
    ...createExtractHandlers({ storage }),
  };
  const app = new Hono();
  for (const operation of compileSpecOperations(loadSpecBundle("test-control"), "test-control")) {
    const handler = handlers[operation.operationId];
    if (!handler) {
      continue;
    }
    app.get(operation.path.replace(/\{([^}]+)\}/g, ":$1"), async (c) => {
      if (c.req.header("Authorization") !== `Bearer ${key}`) {
        throw new ApiProblem(401, "INVALID_API_KEY", "Send the test-control key.", { field: null });
      }
      const queries = Object.entries(c.req.queries()).map(([name, values]) => [
        name,
        values.length === 1 ? (values[0] ?? "") : values,
      ]);
      const result = operation.validate({
        path: c.req.param(),
        query: Object.fromEntries(queries),
        header: (name) => c.req.header(name),
        body: undefined,
      });
      if (!result.ok) {
        throw ApiProblem.fromIssue(result.issue);
      }
      const context = { caller: null, requestId: "test", clientAddress: "127.0.0.1", signal: c.req.raw.signal };
      const reply = await handler(result.request as never, context);
      return c.json(reply.body as object, reply.status as 200);
    });
  }
  app.onError((error, c) => {
    if (error instanceof ApiProblem) {
      const { status, body } = formatTestControlProblem(error);
      return c.json(body as object, status);
    }
    throw error;
  });
  return app;
}

/**
 * Starts the parts of the server the waits watch, on a new database of the run's backend, wired as the server wires
 * them: every commit that stores messages, events or delivery outcomes notifies the waits.
 */
export async function startWaitTestServer(): Promise<WaitTestServer> {
  const clock = systemClock;
  const storage = await openStorage(await newTestDatabase(), { poolSize: 4 });
  const wakeups = new WaitWakeups();
  const notify = () => wakeups.notify();
  const apiKeys = new ApiKeys(storage.keys, clock);
  const apiKey = (await apiKeys.registerInboxKey()).key;
  const worker = new WebhookDeliveryWorker({
    outbox: notifyingOutbox(storage.outbox, notify),
    instanceId: "wait-test",
    soleInstance: storage.kind === "sqlite",
    clock,
    logger: silentLogger,
    retryDelaysMs: [200, 200],
    allowPrivateDestinations: true,
  });
  const onDeliveriesEnqueued = () => {
    worker.wake();
    notify();
  };
  const inboxApp = createInboxApp({
    storage,
    apiKeys,
    pageTokens: new PageTokens(await storage.secret("page_token_secret")),
    limits: { requestsPerMinute: 1_000_000, sendsPerDay: 1_000_000 },
    onDeliveriesEnqueued,
    onEventsStored: notify,
    logger: silentLogger,
    clock,
  });
  const notifications: EventNotifications = storage.listenForEvents(notify, notify, () => {});
  const servers: RunningServer[] = [];
  let smtp: RunningSmtpListener | undefined;
  try {
    servers.push(await listen(inboxApp, "127.0.0.1", 0));
    servers.push(await listen(waitApp(storage, wakeups, TEST_CONTROL_KEY), "127.0.0.1", 0));
    smtp = await startSmtpListener({
      host: "127.0.0.1",
      port: 0,
      maxSize: 1024 * 1024,
      connectionsPerAddress: 10,
      domains: ["pigeonhole.test"],
      isHosted: async (address) =>
        (await storage.sends.inSendTransaction((tx) => tx.findInboxesByAddress([address]))).length > 0,
      receive: {
        sends: storage.sends,
        clock,
        isValidAddress: compileAddressRule(loadSpecBundle("inbox")),
        defaultDomain: "pigeonhole.test",
        onDeliveriesEnqueued,
        onEventsStored: notify,
      },
      logger: silentLogger,
    });
    await worker.start();
  } catch (error) {
    await Promise.all(servers.map((server) => server.close(0)));
    await storage.close();
    throw error;
  }
  const [inboxServer, controlServer] = servers as [RunningServer, RunningServer];
  const smtpListener = smtp;
  return {
    inbox: inboxClient(inboxServer.url, apiKey),
    inboxUrl: inboxServer.url,
    testControl: { url: `${controlServer.url}/_test`, key: TEST_CONTROL_KEY },
    smtp: { host: smtpListener.host, port: smtpListener.port },
    wakeups,
    async close() {
      await smtpListener.close();
      await notifications.close();
      await Promise.all(servers.map((server) => server.close(1_000)));
      await worker.stop();
      await storage.close();
    },
  };
}
