import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Clock } from "../clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { Storage } from "../storage/open-storage.ts";
import { openStorage } from "../storage/open-storage.ts";

/** What each step of starting a server reads: its options, its database, the clock it reads and its name. */
export interface StartContext {
  readonly config: ResolvedOptions;
  readonly storage: Storage;
  /** The clock every part reads (test control's when it is on); claims read real time, `config.clock`. */
  readonly clock: Clock;
  /** This instance among those sharing a database: its claims carry it. */
  readonly instanceId: string;
}

/** Opens the database and names this instance. */
export async function openStartContext(config: ResolvedOptions, clock: Clock): Promise<StartContext> {
  const storage = await openStorage(config.database, {
    poolSize: config.databasePoolSize,
    onConnectionError: (error) => config.logger.warn("database connection lost", { error: error.message }),
    // A PostgreSQL not up yet (the machine is booting too) is waited for, with backoff; see database-wait.ts.
    wait: { maxWaitMs: config.databaseWaitMs, logger: config.logger },
  });
  const instanceId = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  return { config, storage, clock, instanceId };
}
