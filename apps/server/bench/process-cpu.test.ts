import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { parentPid, processName, processTreeCpuSeconds } from "./process-cpu.ts";

/** Node code that runs until its process has used `ms` milliseconds of CPU time, however busy the machine is. */
const spin = (ms: number) => `while (process.cpuUsage().user + process.cpuUsage().system < ${ms * 1000}) {}`;

describe("processTreeCpuSeconds", () => {
  it("counts a process's own CPU time and that of its children, live and exited", async () => {
    // The parent spins 200 ms, then runs a child that spins 800 ms and exits, then starts one that spins 200 ms and stays.
    const program = `
      const { spawn, spawnSync } = require("node:child_process");
      ${spin(200)}
      spawnSync(process.execPath, ["-e", ${JSON.stringify(spin(800))}]);
      const live = spawn(process.execPath, ["-e", ${JSON.stringify(`${spin(200)}; process.stdout.write("spun"); setInterval(() => {}, 1000)`)}]);
      live.stdout.once("data", () => process.stdout.write(String(live.pid) + "\\n"));
      process.on("SIGTERM", () => { live.kill(); process.exit(0); });
      setInterval(() => {}, 1000);
    `;
    const root = spawn(process.execPath, ["-e", program], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const [chunk] = (await once(root.stdout, "data")) as [Buffer];
      const livePid = Number(chunk.toString().trim());
      const rootPid = root.pid as number;

      expect(parentPid(livePid)).toBe(rootPid);
      expect(processName(rootPid)).toEqual(expect.any(String));
      const tree = processTreeCpuSeconds(rootPid);
      const child = processTreeCpuSeconds(livePid);
      // 0.2 + 0.8 + 0.2 s of spinning: the exited child's 0.8 s counts through its parent. /proc counts in clock
      // ticks, which may fall a tick or two short of the exact time each process read for itself.
      expect(tree).toBeGreaterThan(1.1);
      expect(child).toBeGreaterThan(0.15);
      expect(child).toBeLessThan(tree as number);
      // A process that has gone idle uses no more.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((processTreeCpuSeconds(rootPid) as number) - (tree as number)).toBeLessThan(0.1);
    } finally {
      root.kill("SIGTERM");
      await once(root, "exit");
    }
    expect(processTreeCpuSeconds(root.pid as number)).toBeNull();
    expect(processName(root.pid as number)).toBeNull();
  });
});
