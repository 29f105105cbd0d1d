import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A relay starts in well under a second; a test waits for deliveries and retries a few seconds at most.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
