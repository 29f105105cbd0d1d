import { defineConfig } from "vitest/config";

// Type tests only: `*.test-d.ts` files are checked by tsc, never executed.
export default defineConfig({
  test: {
    include: [],
    typecheck: { enabled: true, only: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
