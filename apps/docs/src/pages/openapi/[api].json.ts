// Serves each API's bundled OpenAPI document as built by its spec package, unchanged (the reference pages render a
// copy with examples attached; this is the contract itself).
import type { APIRoute, GetStaticPaths } from "astro";
import { readBundle } from "../../lib/prepare-site.ts";
import { REFERENCE_SPECS, type ReferenceSpec } from "../../lib/reference-specs.ts";

export const getStaticPaths = (() =>
  REFERENCE_SPECS.map((spec) => ({ params: { api: spec.api }, props: { spec } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ spec: ReferenceSpec }> = async ({ props }) =>
  new Response(`${JSON.stringify(await readBundle(props.spec), null, 2)}\n`, {
    headers: { "Content-Type": "application/json" },
  });
