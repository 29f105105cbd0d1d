import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Packing, linting and installing eight packages (from the registry when a cache lacks them) takes seconds to minutes.
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
