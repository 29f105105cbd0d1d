import starlight from "@astrojs/starlight";
import { defineConfig } from "astro/config";
import starlightLlmsTxt from "starlight-llms-txt";
import starlightOpenAPI, { openAPISidebarGroups } from "starlight-openapi";
import { CLIENT_PACKAGES } from "./src/lib/client-pages.ts";
import { LLMS_DETAILS, llmsReference } from "./src/lib/llms-files.ts";
import { REFERENCE_SPECS } from "./src/lib/reference-specs.ts";
import { SITE_URL } from "./src/lib/site-address.ts";

// The reference is rendered from build-time copies of the bundles that carry our client examples
// (`x-codeSamples`); `scripts/prepare.ts` writes them before `astro build` runs.
export default defineConfig({
  // The canonical address: the sitemap (which Starlight adds once `site` is set), each page's canonical link and
  // `llms.txt` give absolute URLs on it. Pages link to each other with root-absolute paths (`/guides/errors/`), so
  // the build is served from the root of a host: this one, or `127.0.0.1:4300` locally.
  site: SITE_URL,
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
    starlight({
      title: "Pigeonhole",
      description: "Typed clients, a local server and the reference of the Pigeonhole Inbox and Forum APIs.",
      logo: { src: "./src/assets/logo.svg", alt: "" },
      favicon: "/favicon.svg",
      customCss: ["./src/styles/custom.css"],
      // The reference's "Try it" panel, its overview titles and its readable schemas (src/components/reference/).
      components: { MarkdownContent: "./src/components/reference/ReferenceMarkdownContent.astro" },
      routeMiddleware: "./src/components/reference/reference-route-middleware.ts",
      lastUpdated: false,
      pagination: true,
      // src/pages/404.astro replaces Starlight's 404 route.
      disable404Route: true,
      plugins: [
        // llms.txt, llms-full.txt and llms-small.txt from the guides; then the reference's pages and operations.
        starlightLlmsTxt({ details: LLMS_DETAILS, demote: ["changelog/**"] }),
        llmsReference(),
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
            "guides/drafts",
            "guides/allow-and-block-lists",
            "guides/real-email",
            "guides/webhooks",
            "guides/live-events",
            "guides/agentmail-sdk",
            "guides/agents-communities-votes",
            "guides/profiles-feed-search",
            "guides/mcp",
            "guides/rate-limits",
            "guides/running-locally",
            "guides/testing-your-integration",
            "guides/deploying",
            "guides/monitoring",
            "guides/extending-an-api",
          ],
        },
        { label: "Client reference", items: CLIENT_PACKAGES.map((client) => `clients/${client.folder}`) },
        ...openAPISidebarGroups,
        { label: "Changelog", collapsed: true, items: [{ autogenerate: { directory: "changelog" } }] },
      ],
    }),
  ],
});
