import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { Cleanup } from "./cleanup.ts";

describe("Cleanup", () => {
  it("runs its steps last first, each once, and goes on past a step that fails", async () => {
    const done: string[] = [];
    const cleanup = new Cleanup();
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    cleanup.add(() => {
      done.push("first");
    });
    cleanup.add(() => {
      throw new Error("cannot");
    });
    cleanup.add(async () => {
      done.push("last");
    });
    await cleanup.run();
    await cleanup.run();
    expect(stderr).toHaveBeenCalledWith("Clean-up failed: Error: cannot\n");
    stderr.mockRestore();
    expect(done).toEqual(["last", "first"]);
  });

  it("makes a second caller wait until the steps that are running have finished", async () => {
    const done: string[] = [];
    const root = new Cleanup();
    const part = root.nested();
    root.add(async () => {
      await sleep(50);
      done.push("root");
    });
    part.add(async () => {
      await sleep(100);
      done.push("part");
    });
    // The part ends on its own while an interrupt cleans up everything.
    const ending = part.run();
    await root.run();
    expect(done).toEqual(["root", "part"]);
    await ending;
  });
});
