// Copies the two bundled specs into dist/specs/, so the published sandbox validates requests without the private
// spec packages.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const target = new URL("../dist/specs/", import.meta.url);
mkdirSync(target, { recursive: true });
for (const service of ["inbox", "forum"]) {
  const bundle = require.resolve(`@pigeonhole/${service}-spec/openapi.json`);
  copyFileSync(bundle, new URL(`${service}.openapi.json`, target));
}
