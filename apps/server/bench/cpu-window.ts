import { machineBusyCpuSeconds, processTreeCpuSeconds } from "./process-cpu.ts";

/** CPU seconds each process of a measurement used over its window. */
export interface CpuUse {
  /** One figure per server instance, in their order. */
  servers: number[];
  /** The database server with all its processes; null when it is not a process of this machine (or there is none). */
  database: number | null;
  /** This process, which generates the load. */
  loadGenerator: number;
  /** Every other process of the machine: work that competed with the measurement (never below 0). */
  others: number;
}

export interface CpuWindowProcesses {
  servers: readonly number[];
  /** The database's main process (PostgreSQL's postmaster), whose children are its connections and workers. */
  database?: number;
}

function treeSeconds(pid: number): number {
  const seconds = processTreeCpuSeconds(pid);
  if (seconds === null) {
    throw new Error(`Process ${pid} ended during the measurement.`);
  }
  return seconds;
}

/** Starts counting the CPU time of the given processes and of this one; the returned function stops and answers. */
export function startCpuWindow(processes: CpuWindowProcesses): () => CpuUse {
  const { database } = processes;
  const serversAtStart = processes.servers.map(treeSeconds);
  const databaseAtStart = database === undefined ? null : treeSeconds(database);
  const loadAtStart = process.cpuUsage();
  const machineAtStart = machineBusyCpuSeconds();
  return () => {
    const load = process.cpuUsage(loadAtStart);
    const machine = machineBusyCpuSeconds() - machineAtStart;
    const servers = processes.servers.map((pid, index) => treeSeconds(pid) - (serversAtStart[index] ?? 0));
    const databaseUse =
      database === undefined || databaseAtStart === null ? null : treeSeconds(database) - databaseAtStart;
    const loadGenerator = (load.user + load.system) / 1e6;
    const ours = servers.reduce((sum, value) => sum + value, 0) + (databaseUse ?? 0) + loadGenerator;
    return { servers, database: databaseUse, loadGenerator, others: Math.max(0, machine - ours) };
  };
}
