import { build } from "esbuild";

/** Bundles a test page's entry module and everything it imports into one ES module script for Chromium. */
export async function bundlePageScript(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) {
    throw new Error(`esbuild wrote nothing for ${entry}.`);
  }
  return output.text;
}
