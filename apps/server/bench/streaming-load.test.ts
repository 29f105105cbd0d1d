import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CeilingProcess, startCeiling } from "./ceiling.ts";
import { startCpuWindow } from "./cpu-window.ts";
import { runLoad } from "./load.ts";
import { runStreamingLoad } from "./streaming-load.ts";

let targets: CeilingProcess[] = [];
beforeAll(async () => {
  targets = await Promise.all([startCeiling(), startCeiling()]);
});
afterAll(async () => {
  await Promise.all(targets.map((target) => target.stop()));
});

const MIB = 1024 * 1024;

describe("runStreamingLoad", () => {
  it("spreads the connections over every target and counts every answer's bytes", async () => {
    const window = startCpuWindow({ servers: targets.map((target) => target.pid) });
    const result = await runStreamingLoad(
      targets.map((target) => target.url),
      { path: `/ceiling/bytes/${MIB}` },
      4,
      1,
    );
    const cpu = window();
    expect(result.requests).toBeGreaterThan(20);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(result.p50).toBeGreaterThan(0);
    // Each answer is the body and a few hundred bytes of headers.
    const perAnswer = result.bytesPerSecond / result.rps;
    expect(perAnswer).toBeGreaterThan(MIB);
    expect(perAnswer).toBeLessThan(MIB + 1024);
    const [first, second] = cpu.servers as [number, number];
    expect(Math.min(first, second)).toBeGreaterThan(0.25 * Math.max(first, second));
  });

  it("reads megabyte answers several times faster than autocannon does", async () => {
    const [target] = targets as [CeilingProcess];
    const request = { path: `/ceiling/bytes/${MIB}` };
    const streaming = await runStreamingLoad([target.url], request, 4, 1);
    const autocannon = await runLoad([target.url], request, 4, 1);
    expect(streaming.rps).toBeGreaterThan(3 * autocannon.rps);
  });

  it("fails when requests do not succeed", async () => {
    await expect(runStreamingLoad([targets[0]?.url as string], { path: "/missing" }, 2, 1)).rejects.toThrow(
      /GET \/missing: \d+ failed requests/,
    );
  });
});
