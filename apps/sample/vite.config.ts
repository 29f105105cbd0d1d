import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const SAMPLE_SERVER = "http://127.0.0.1:4200";

// Builds the page into dist/; the sample's server serves it. For `vite dev`, /api goes to a running server.
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true },
  server: {
    host: "127.0.0.1",
    proxy: {
      "/api": {
        target: SAMPLE_SERVER,
        // The sample's server answers only its own Host and, for changes, its own page's Origin. The dev page
        // stands in for it: its requests are passed on as the sample's; other origins' stay refused.
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on("proxyReq", (proxyRequest, request) => {
            if (request.headers.origin === `http://${request.headers.host}`) {
              proxyRequest.setHeader("origin", SAMPLE_SERVER);
            }
          });
        },
      },
    },
  },
});
