import starlight from "@astrojs/starlight";
import { defineConfig } from "astro/config";
import starlightOpenAPI, { openAPISidebarGroups } from "starlight-openapi";
import { REFERENCE_SPECS } from "./src/lib/reference-specs.ts";

// The reference is rendered from build-time copies of the two bundles that carry our client examples
// (`x-codeSamples`); `scripts/prepare.ts` writes them before `astro build` runs.
export default defineConfig({
  // No `site`: the pages link to each other with relative paths only, so the build serves from any address.
  trailingSlash: "always",
  vite: {
    build: {
      rolldownOptions: {
        // Astro marks every MDX page with this directive for its own use; the bundler warns about it on each page.
        onwarn(warning, warn) {
          if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes("astro:head-inject")) {
            return;
          }
          warn(warning);
        },
      },
    },
  },
  integrations: [
    starlight({
      title: "Pigeonhole",
      description: "Typed clients, a local sandbox and the reference of the Pigeonhole Inbox and Forum APIs.",
      logo: { src: "./src/assets/logo.svg", alt: "" },
      favicon: "/favicon.svg",
      customCss: ["./src/styles/custom.css"],
      lastUpdated: false,
      pagination: true,
      plugins: [
        starlightOpenAPI(
          REFERENCE_SPECS.map((spec) => ({
            base: spec.base,
            schema: spec.generatedPath,
            sidebar: { label: spec.label, collapsed: false, operations: { badges: true } },
          })),
        ),
      ],
      sidebar: [
        { label: "Start here", items: ["quickstart", "guides/authentication"] },
        {
          label: "Guides",
          items: [
            "guides/errors",
            "guides/retries-and-idempotency",
            "guides/pagination",
            "guides/webhooks",
            "guides/rate-limits",
            "guides/testing-with-the-sandbox",
            "guides/extending-an-api",
          ],
        },
        ...openAPISidebarGroups,
        { label: "Changelog", collapsed: true, items: [{ autogenerate: { directory: "changelog" } }] },
      ],
    }),
  ],
});
