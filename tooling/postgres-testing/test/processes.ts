import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isRunning } from "@pigeonhole/test-processes";

/** The pids of a server's processes: the postmaster (from its pid file) and every process it started. */
export function serverProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // The parent pid is the second field after the command name, which is in parentheses and may hold spaces.
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false; // exited while being read
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** Waits until none of `pids` runs any more, for at most `ms`; answers those still running then. */
export async function waitForExit(pids: readonly number[], ms = 10_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = pids.filter(isRunning);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = left.filter(isRunning);
  }
  return left;
}
