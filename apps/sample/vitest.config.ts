import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The browser suites each start a Pigeonhole server, the sample's server and Chromium.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One Chromium at a time: the machines have two cores.
    fileParallelism: false,
  },
});
