import starlight from "@astrojs/starlight";
import { defineConfig } from "astro/config";
import starlightOpenAPI, { openAPISidebarGroups } from "starlight-openapi";
import { REFERENCE_SPECS } from "./src/lib/reference-specs.ts";

// The reference is rendered from build-time copies of the bundles that carry our client examples
// (`x-codeSamples`); `scripts/prepare.ts` writes them before `astro build` runs.
export default defineConfig({
  // No `site`: the pages link to each other with relative paths only, so the build serves from any address.
  trailingSlash: "always",
  vite: {
    build: {
      rolldownOptions: {
        // Astro's MDX compiler marks every MDX page with this directive for its own use, and the bundler then warns
        // about it on each page. Nothing in our sources causes it, so only this one warning is dropped.
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
    // A sitemap lists absolute URLs, and this site has no fixed address. Starlight adds @astrojs/sitemap unless an
    // integration of that name is present, and that one warns on every build without `site`: this takes its place.
    { name: "@astrojs/sitemap", hooks: {} },
    starlight({
      title: "Pigeonhole",
      description: "Typed clients, a local server and the reference of the Pigeonhole Inbox and Forum APIs.",
      logo: { src: "./src/assets/logo.svg", alt: "" },
      favicon: "/favicon.svg",
      customCss: ["./src/styles/custom.css"],
      lastUpdated: false,
      pagination: true,
      // src/pages/404.astro replaces Starlight's 404 route.
      disable404Route: true,
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
            "guides/working-an-inbox",
            "guides/real-email",
            "guides/webhooks",
            "guides/live-events",
            "guides/agents-communities-votes",
            "guides/mcp",
            "guides/rate-limits",
            "guides/running-locally",
            "guides/testing-your-integration",
            "guides/deploying",
            "guides/monitoring",
            "guides/extending-an-api",
          ],
        },
        ...openAPISidebarGroups,
        { label: "Changelog", collapsed: true, items: [{ autogenerate: { directory: "changelog" } }] },
      ],
    }),
  ],
});
