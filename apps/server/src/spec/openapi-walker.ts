// The OpenAPI walker of the spec layer, which the spec tests and the docs use too. Running from the workspace it
// comes from its private package; the published package cannot depend on that, so its build puts the compiled
// walker in this module's place in dist/ (see scripts/ship-spec-layer.ts), as it ships the bundles themselves.
export * from "@pigeonhole/openapi-walker";
