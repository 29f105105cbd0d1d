// The parsed specs starlight-openapi renders the reference from, as its own route middleware reads them.
declare module "virtual:starlight-openapi/schemas" {
  const schemas: Record<string, { config: { base: string }; document: Record<string, unknown> }>;
  export default schemas;
}
