// CPU time of processes from Linux's /proc, for the benchmark's per-process columns.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

interface ProcStat {
  pid: number;
  parentPid: number;
  /** Clock ticks the process itself used, in user and kernel mode. */
  ownTicks: number;
  /** Clock ticks of its children that have exited and that it has waited for. */
  reapedChildTicks: number;
}

/** Clock ticks per second of the times in /proc (`getconf CLK_TCK`, which is 100 on Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** `/proc/<pid>/stat`, or null once the process is gone. */
function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name, in parentheses, may hold spaces and parentheses: the fields start after the last ")".
  // From there: state, ppid, ... utime (11), stime (12), cutime (13), cstime (14), counted from 0.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const field = (index: number) => Number(fields[index]);
  return {
    pid,
    parentPid: field(1),
    ownTicks: field(11) + field(12),
    reapedChildTicks: field(13) + field(14),
  };
}

function childrenOf(parents: ReadonlySet<number>): ProcStat[] {
  const children: ProcStat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry)) {
      const stat = readStat(Number(entry));
      if (stat && parents.has(stat.parentPid)) {
        children.push(stat);
      }
    }
  }
  return children;
}

/** Whether this machine exposes process times the way `processTreeCpuSeconds` reads them. */
export function canReadProcessCpu(): boolean {
  return readStat(process.pid) !== null;
}

/** The command name of a running process (`comm`), or null once it is gone. */
export function processName(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
}

/** The parent of a running process, or null once it is gone. */
export function parentPid(pid: number): number | null {
  return readStat(pid)?.parentPid ?? null;
}

/**
 * CPU seconds that a process and all its descendants have used so far, or null once the process is gone. Descendants
 * that have exited count through their parent's reaped-children time, so the total only grows while the root runs:
 * the difference of two readings is what the tree used in between, including processes started and ended meanwhile
 * (such as PostgreSQL's per-connection backends).
 */
export function processTreeCpuSeconds(rootPid: number): number | null {
  const root = readStat(rootPid);
  if (!root) {
    return null;
  }
  let ticks = root.ownTicks + root.reapedChildTicks;
  let parents = new Set([rootPid]);
  // A process tree is finite and /proc is read once per level; the bound only guards against a pid reused in a loop.
  for (let depth = 0; depth < 32 && parents.size > 0; depth++) {
    const children = childrenOf(parents);
    for (const child of children) {
      ticks += child.ownTicks + child.reapedChildTicks;
    }
    parents = new Set(children.map((child) => child.pid));
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * CPU seconds the machine's processors have spent running processes (user and kernel time, and time the hypervisor
 * gave to other machines), from the first line of /proc/stat. Interrupt handling is left out: it is not counted for
 * any process either, and much of it is the measured traffic itself.
 */
export function machineBusyCpuSeconds(): number {
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const [, user = 0, nice = 0, system = 0, , , , , steal = 0] = line.trim().split(/\s+/).map(Number);
  return (user + nice + system + steal) / TICKS_PER_SECOND;
}
