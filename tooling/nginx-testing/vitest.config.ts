import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // nginx starts in a few tens of milliseconds; a test proxies a handful of requests.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
