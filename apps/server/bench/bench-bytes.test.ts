import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { benchBytes, MAX_BENCH_BYTES, sizeLabel } from "./bench-bytes.ts";

describe("benchBytes", () => {
  it("answers the same bytes for the same size, of that size", () => {
    const first = benchBytes(4096);
    expect(first).toHaveLength(4096);
    expect(Buffer.from(benchBytes(4096)).equals(Buffer.from(first))).toBe(true);
    expect(benchBytes(0)).toHaveLength(0);
  });

  it("is content that does not compress", () => {
    const bytes = benchBytes(64 * 1024);
    expect(deflateSync(bytes).length).toBeGreaterThan(0.99 * bytes.length);
  });

  it("refuses a size the API would not take", () => {
    expect(() => benchBytes(MAX_BENCH_BYTES + 1)).toThrow(RangeError);
    expect(() => benchBytes(-1)).toThrow(RangeError);
    expect(() => benchBytes(1.5)).toThrow(RangeError);
  });
});

describe("sizeLabel", () => {
  it("names whole KiB and MiB, else bytes", () => {
    expect(sizeLabel(1024 * 1024)).toBe("1 MiB");
    expect(sizeLabel(4096)).toBe("4 KiB");
    expect(sizeLabel(1536)).toBe("1536 B");
    expect(sizeLabel(100)).toBe("100 B");
  });
});
