// What each module weighs in a browser bundle: minified bytes from esbuild's metafile, and what it adds to the
// gzipped bundle (the gzipped size of the whole, minus that of the whole without it), since gzip shares a dictionary
// across modules and a module's own gzipped size would overstate it.

import { gzipSync } from "node:zlib";
import { type BuildOptions, build, transform } from "esbuild";

export interface ModuleWeight {
  /** The module's path, from its package name on. */
  module: string;
  minified: number;
  /** Approximate: modules are minified one by one here, so names are not shortened across them. */
  gzipAdded: number;
}

const gzipped = (code: string) => gzipSync(code, { level: 9 }).byteLength;

/** The modules of the bundle of `options`, heaviest first. */
export async function moduleWeights(options: BuildOptions): Promise<ModuleWeight[]> {
  const minified = await build({ ...options, minify: true, metafile: true, write: false });
  const readable = await build({ ...options, minify: false, write: false });
  const inputs = Object.values(minified.metafile.outputs)[0]?.inputs ?? {};
  // Unminified, esbuild opens each module's code with a `// <path>` line; those lines split the bundle by module.
  const text = readable.outputFiles[0]?.text ?? "";
  const parts = text.split(/^(?=\/\/ \S+$)/m).map((part) => ({ path: part.slice(3, part.indexOf("\n")), code: part }));
  const pieces = await Promise.all(
    parts
      .filter((part) => part.path in inputs)
      .map(async (part) => ({ path: part.path, code: (await transform(part.code, { minify: true })).code })),
  );
  const whole = gzipped(pieces.map((piece) => piece.code).join(""));
  return pieces
    .map((piece) => ({
      module: piece.path.replace(/^.*node_modules\//, "").replace(/^(\.\.\/)+/, ""),
      minified: inputs[piece.path]?.bytesInOutput ?? 0,
      gzipAdded:
        whole -
        gzipped(
          pieces
            .filter((other) => other !== piece)
            .map((other) => other.code)
            .join(""),
        ),
    }))
    .sort((a, b) => b.minified - a.minified);
}
