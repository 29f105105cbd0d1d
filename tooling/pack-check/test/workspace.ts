import { readFile } from "node:fs/promises";
import { runCommand } from "./run-command.ts";

export interface WorkspacePackage {
  name: string;
  version: string;
  /** Absolute directory of the package in the workspace. */
  path: string;
  private: boolean;
}

/** Every project of the workspace, as pnpm sees it (so no directory is hard-coded here). */
export async function workspacePackages(cwd: string): Promise<WorkspacePackage[]> {
  const output = await runCommand("pnpm", ["ls", "--recursive", "--depth", "-1", "--json"], { cwd });
  return JSON.parse(output) as WorkspacePackage[];
}

/** The workspace packages this package lists as `workspace:` devDependencies: the ones it checks. */
export async function checkedPackageNames(packageJsonUrl: URL): Promise<string[]> {
  const manifest = JSON.parse(await readFile(packageJsonUrl, "utf8")) as { devDependencies: Record<string, string> };
  return Object.entries(manifest.devDependencies)
    .filter(([, range]) => range.startsWith("workspace:"))
    .map(([name]) => name)
    .sort();
}
