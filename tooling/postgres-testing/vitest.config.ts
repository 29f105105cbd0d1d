import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["@pigeonhole/postgres-testing/global-setup"],
    // A cluster starts in 1 to 3 s; a few start one after another in a test.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
