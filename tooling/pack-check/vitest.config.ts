import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Packing, linting and installing six packages takes seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
