// Code block options. They live here rather than in astro.config.ts because starlight-openapi replaces Starlight's
// `expressiveCode` option with its own; Expressive Code merges this file in on top.
import { defineEcConfig } from "@astrojs/starlight/expressive-code";

export default defineEcConfig({
  // Long lines wrap, keeping their indentation, instead of hiding behind a horizontal scroll bar.
  defaultProps: { wrap: true },
});
