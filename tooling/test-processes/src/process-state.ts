import { readFileSync } from "node:fs";

/**
 * Whether a process still runs. A zombie does not: a server killed outright stays one until its parent (often the
 * machine's init) collects it, and `kill(pid, 0)` would still find it.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    // The state follows the command name, which is in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    // No /proc (macOS): the signal test is all there is.
    return true;
  }
}
