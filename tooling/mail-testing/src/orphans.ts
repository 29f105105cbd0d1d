import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { isRunning } from "./process-state.ts";
import { runProgram } from "./programs.ts";

/** Every relay's folder starts with this, and holds the pid of the process that started it in this file. */
export const RELAY_PREFIX = "pigeonhole-relay-";
export const OWNER_FILE = "owner.pid";

/**
 * Stops and removes the relays in `parentDir` whose starting process is gone without stopping them: one killed outright
 * runs no exit handler, and its Postfix would otherwise run until the machine stops. A folder without an owner file is
 * being set up right now by another process, and is left alone.
 */
export async function stopOrphans(parentDir: string, postfix: string): Promise<void> {
  const names = (await readdir(parentDir).catch(() => [])).filter((name) => name.startsWith(RELAY_PREFIX));
  for (const name of names) {
    const root = join(parentDir, name);
    const owner = Number(await readFile(join(root, OWNER_FILE), "utf8").catch(() => ""));
    if (!Number.isInteger(owner) || owner <= 0 || isRunning(owner)) {
      continue;
    }
    await runProgram(postfix, ["-c", join(root, "config"), "abort"]).catch(() => {
      // Not running any more: only the folder is left.
    });
    await rm(root, { recursive: true, force: true });
  }
}
