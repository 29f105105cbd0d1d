import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    // The browser suite starts a server and Chromium once per file; loading a page can take a few seconds.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
