import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchBytes } from "./bench-bytes.ts";
import { type CeilingProcess, startCeiling } from "./ceiling.ts";
import { startCpuWindow } from "./cpu-window.ts";
import { runLoad } from "./load.ts";

let targets: CeilingProcess[] = [];
beforeAll(async () => {
  targets = await Promise.all([startCeiling(), startCeiling()]);
});
afterAll(async () => {
  await Promise.all(targets.map((target) => target.stop()));
});

describe("runLoad", () => {
  it("spreads the connections over every target and counts their requests together", async () => {
    const window = startCpuWindow({ servers: targets.map((target) => target.pid) });
    const result = await runLoad(
      targets.map((target) => target.url),
      { path: "/ceiling" },
      4,
      1,
    );
    const cpu = window();
    expect(result.requests).toBeGreaterThan(100);
    expect(result.rps).toBeGreaterThan(100);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    // Both processes served a share: each used a good part of the CPU the other did.
    const [first, second] = cpu.servers as [number, number];
    expect(Math.min(first, second)).toBeGreaterThan(0.25 * Math.max(first, second));
    expect(cpu.loadGenerator).toBeGreaterThan(0);
    expect(cpu.database).toBeNull();
  });

  it("counts the bytes of the answers, bodies included", async () => {
    const size = 256 * 1024;
    const [ceiling] = targets as [CeilingProcess];
    const answer = await fetch(`${ceiling.url}/ceiling/bytes/${size}`);
    expect(Buffer.from(await answer.arrayBuffer()).equals(benchBytes(size))).toBe(true);
    const result = await runLoad([ceiling.url], { path: `/ceiling/bytes/${size}` }, 2, 1);
    const perAnswer = result.bytesPerSecond / result.rps;
    // Each answer is the body and a few hundred bytes of headers.
    expect(perAnswer).toBeGreaterThan(size);
    expect(perAnswer).toBeLessThan(size + 1024);
  });

  it("fails when requests do not succeed", async () => {
    await expect(runLoad([targets[0]?.url as string], { path: "/missing" }, 2, 1)).rejects.toThrow(
      /GET \/missing: \d+ failed requests \(non-2xx \d+/,
    );
  });
});
