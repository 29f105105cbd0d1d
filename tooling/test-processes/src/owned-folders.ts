import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isRunning } from "./process-state.ts";

/** Every server's folder holds the pid of the process that started it in this file. */
export const OWNER_FILE = "owner.pid";

/** Makes a new folder `<parentDir>/<prefix>XXXXXX` owned by this process (see `stopOrphans`), and answers its path. */
export async function makeOwnedFolder(parentDir: string, prefix: string): Promise<string> {
  const root = await mkdtemp(join(parentDir, prefix));
  await writeFile(join(root, OWNER_FILE), String(process.pid));
  return root;
}

/**
 * Stops (with `stop`, which may fail when the server is not running any more) and removes the folders in `parentDir`
 * starting with `prefix` whose starting process is gone without stopping them: one killed outright runs no exit
 * handler, and its server would otherwise run until the machine stops. A folder without an owner file is being set up
 * right now by another process, and is left alone.
 */
export async function stopOrphans(
  parentDir: string,
  prefix: string,
  stop: (root: string) => Promise<unknown>,
): Promise<void> {
  const names = (await readdir(parentDir).catch(() => [])).filter((name) => name.startsWith(prefix));
  for (const name of names) {
    const root = join(parentDir, name);
    const owner = Number(await readFile(join(root, OWNER_FILE), "utf8").catch(() => ""));
    if (!Number.isInteger(owner) || owner <= 0 || isRunning(owner)) {
      continue;
    }
    await stop(root).catch(() => {
      // Not running any more: only the folder is left.
    });
    await rm(root, { recursive: true, force: true });
  }
}
