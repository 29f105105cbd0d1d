// Ships the spec layer in dist/, so the published server needs none of the private spec packages: the three bundled
// specs (dist/specs/: both services and test control), which it validates requests against, and the compiled OpenAPI walker that reads them, put in
// the place of src/spec/openapi-walker.ts (in the workspace, a re-export of the walker's package).
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

const specs = new URL("../dist/specs/", import.meta.url);
mkdirSync(specs, { recursive: true });
for (const service of ["inbox", "forum", "test-control"]) {
  const bundle = require.resolve(`@pigeonhole/${service}-spec/openapi.json`);
  copyFileSync(bundle, new URL(`${service}.openapi.json`, specs));
}

const spec = new URL("../dist/spec/", import.meta.url);
for (const file of ["openapi-walker.js", "openapi-walker.d.ts"]) {
  copyFileSync(require.resolve(`@pigeonhole/openapi-walker/dist/${file}`), new URL(file, spec));
}
// The re-export's source maps would describe code that is no longer there.
for (const map of ["openapi-walker.js.map", "openapi-walker.d.ts.map"]) {
  rmSync(new URL(map, spec), { force: true });
}
