import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Builds the page into dist/; the sample's server serves it. For `vite dev`, /api goes to a running server.
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true },
  server: { host: "127.0.0.1", proxy: { "/api": "http://127.0.0.1:4200" } },
});
