import { configDefaults, defineConfig } from "vitest/config";

/**
 * Suites that store data: they run twice, on SQLite and on a throw-away PostgreSQL server, because both databases
 * must behave the same. The others (spec compilation, unit tests of pure code) run once.
 */
const STORING_SUITES = [
  "src/storage/**/*.test.ts",
  "src/work-queue/**/*.test.ts",
  "src/inbox/**/*.test.ts",
  "src/forum/**/*.test.ts",
  "src/contract.test.ts",
  "test/fuzz.test.ts",
  "src/http/service-app.test.ts",
  "src/spec/nul-character.test.ts",
  "src/http/client-address.test.ts",
  "test/multi-instance/**/*.test.ts",
  "src/mail/**/*.test.ts",
  "src/test-control/**/*.test.ts",
  "test/clients/**/*.test.ts",
  "test/security/**/*.test.ts",
  "test/readiness/ready.test.ts",
  "test/operations/**/*.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts", "fuzz/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/multi-instance/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: STORING_SUITES,
          exclude: [...configDefaults.exclude, "src/storage/sqlite/**"],
          env: { PIGEONHOLE_TEST_BACKEND: "postgres" },
          globalSetup: ["@pigeonhole/postgres-testing/global-setup"],
        },
      },
    ],
  },
});
