import { randomBytes } from "node:crypto";
import type { ServerDatabase } from "./database.ts";

/**
 * A random secret kept in the database under `name`, created on first use, so it outlives restarts and every
 * instance on the database uses the same one (the first to start makes it).
 */
export async function loadOrCreateSecret(db: ServerDatabase, name: string): Promise<Buffer> {
  await db
    .insertInto("meta")
    .values({ key: name, value: randomBytes(32).toString("base64") })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const row = await db.selectFrom("meta").select("value").where("key", "=", name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, "base64");
}
