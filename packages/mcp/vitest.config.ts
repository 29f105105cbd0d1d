import { defineConfig } from "vitest/config";

// The end-to-end tests, which start the real server and spawn the built bin, live with the server's client tests
// (apps/server/test/clients/mcp), as the layering has apps use packages and not the other way round.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
  },
});
