import { setTimeout as sleep } from "node:timers/promises";
import type { ServerLogger } from "../logger.ts";
import { connectionFailureKind, rootMessage } from "./postgres/connection-failure.ts";

/** How long a server starting waits for a PostgreSQL database that is not reachable yet, and where it says so. */
export interface DatabaseWait {
  /** The most time spent waiting between attempts, in all; 0 gives up at the first failure. */
  readonly maxWaitMs: number;
  readonly logger: ServerLogger;
}

/** The database stayed unreachable for as long as the server was to wait for it. */
export class DatabaseUnreachableError extends Error {
  override name = "DatabaseUnreachableError";
}

/** The database answered, and refused: waiting will not help (a wrong password, a database not created). */
export class DatabaseRefusedError extends Error {
  override name = "DatabaseRefusedError";
}

/** The first wait after a failed attempt; each next one doubles, up to {@link MAX_RETRY_DELAY_MS}. */
export const FIRST_RETRY_DELAY_MS = 250;
export const MAX_RETRY_DELAY_MS = 5_000;

const retryDelay = (attempt: number) => Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** (attempt - 1));

/** Says what to do about a database that answered and refused, in place of the driver's bare message. */
function refusal(error: unknown, location: string): Error | undefined {
  const message = rootMessage(error);
  switch (connectionFailureKind(error)) {
    case "login refused":
      return new DatabaseRefusedError(
        `PostgreSQL at ${location} refused the login: ${message}. Check the user and password in the database URL.`,
        { cause: error },
      );
    case "no such database":
      return new DatabaseRefusedError(
        `PostgreSQL at ${location} has no such database: ${message}. Create it first (createdb), or correct its name ` +
          "in the database URL.",
        { cause: error },
      );
    default:
      return undefined;
  }
}

/**
 * Opens the database with `open`, trying again with exponential backoff (0.25 s, 0.5 s, 1 s, ... 5 s at most between
 * attempts) while it is only unreachable: refused, not resolving yet, or starting up. Each failed attempt is logged
 * with its error and the next delay. After `maxWaitMs` of waiting it gives up with a {@link DatabaseUnreachableError};
 * a refused login or a missing database fails at once with a {@link DatabaseRefusedError}, and anything else as it
 * came. `location` names the database in messages (without its password).
 */
export async function openWhenReachable<T>(open: () => Promise<T>, location: string, wait: DatabaseWait): Promise<T> {
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await open();
    } catch (error) {
      if (connectionFailureKind(error) !== "unreachable") {
        throw refusal(error, location) ?? error;
      }
      const waitedMs = performance.now() - started;
      const remainingMs = Math.floor(wait.maxWaitMs - waitedMs);
      if (remainingMs <= 0) {
        const waited =
          wait.maxWaitMs === 0 ? "" : ` after waiting ${Math.round(waitedMs / 1000)} s (${attempt} attempts)`;
        throw new DatabaseUnreachableError(
          `PostgreSQL at ${location} is not reachable${waited}: ${rootMessage(error)}. Start it, or check the address.`,
          { cause: error },
        );
      }
      const delayMs = Math.min(retryDelay(attempt), remainingMs);
      wait.logger.warn("database not reachable yet; trying again", {
        database: location,
        attempt,
        error: rootMessage(error),
        retry_in_ms: delayMs,
      });
      await sleep(delayMs);
    }
  }
}
