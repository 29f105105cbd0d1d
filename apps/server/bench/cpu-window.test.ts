import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { startCpuWindow } from "./cpu-window.ts";

const node = (code: string) => spawn(process.execPath, ["-e", code], { stdio: "ignore" });

describe("startCpuWindow", () => {
  it("tells the measured processes, this one and every other process apart", async () => {
    const idle = node("setInterval(() => {}, 1000)");
    try {
      const window = startCpuWindow({ servers: [idle.pid as number] });
      // Not measured: a process that uses 0.6 s of CPU.
      const busy = node("while (process.cpuUsage().user + process.cpuUsage().system < 600_000) {}");
      await once(busy, "exit");
      // This process: 0.3 s.
      const start = process.cpuUsage();
      while (process.cpuUsage(start).user + process.cpuUsage(start).system < 300_000) {}
      const use = window();

      expect(use.servers).toHaveLength(1);
      expect(use.servers[0]).toBeLessThan(0.1);
      expect(use.database).toBeNull();
      expect(use.loadGenerator).toBeGreaterThanOrEqual(0.3);
      expect(use.others).toBeGreaterThan(0.45);
    } finally {
      idle.kill();
      await once(idle, "exit");
    }
  });
});
