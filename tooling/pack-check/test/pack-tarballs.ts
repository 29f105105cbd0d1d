// Packs workspace packages as npm would ship them: one tarball each, made by `pnpm pack` (which turns `workspace:`
// ranges into the versions a registry would hold). The pack check installs them into a fresh project; the deployment
// guide's test installs the server's into its /opt/pigeonhole.
import { mkdir, readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand } from "./run-command.ts";
import { type WorkspacePackage, workspacePackages } from "./workspace.ts";

/** A folder of the workspace, where pnpm lists its packages. */
const IN_WORKSPACE = fileURLToPath(new URL("..", import.meta.url));

/** Each package's tarball, by package name. */
export type Tarballs = ReadonlyMap<string, string>;

/** Packs `names` (packages of this workspace) into folders of `destination`, one tarball per package. */
export async function packPackages(
  names: readonly string[],
  destination: string,
  workspace?: readonly WorkspacePackage[],
): Promise<Tarballs> {
  const projects = workspace ?? (await workspacePackages(IN_WORKSPACE));
  const packed = await Promise.all(
    names.map(async (name) => {
      const source = projects.find((candidate) => candidate.name === name);
      if (!source) {
        throw new Error(`${name} is not a package of this workspace.`);
      }
      const folder = join(destination, basename(source.path));
      await mkdir(folder, { recursive: true });
      await runCommand("pnpm", ["pack", "--pack-destination", folder], { cwd: source.path });
      const [created, ...more] = await readdir(folder);
      if (!created || more.length > 0) {
        throw new Error(`pnpm pack of ${name} should make one tarball, made: ${[created, ...more].join(", ")}`);
      }
      return [name, join(folder, created)] as const;
    }),
  );
  return new Map(packed);
}

/**
 * Packs one package and every package of the workspace it depends on at runtime (its `workspace:` dependencies, and
 * theirs): what `npm install <name>` would fetch from the registry had they been published.
 */
export async function packWithWorkspaceDependencies(name: string, destination: string): Promise<Tarballs> {
  const workspace = await workspacePackages(IN_WORKSPACE);
  const names = new Set<string>();
  const visit = async (next: string) => {
    const project = workspace.find((candidate) => candidate.name === next);
    if (!project || names.has(next)) {
      return;
    }
    names.add(next);
    const manifest = JSON.parse(await readFile(join(project.path, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      if (range.startsWith("workspace:")) {
        await visit(dependency);
      }
    }
  };
  await visit(name);
  return packPackages([...names], destination, workspace);
}
