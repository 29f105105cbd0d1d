/**
 * Reads an environment variable where there is a `process` (Node, Bun, Deno's Node mode); undefined elsewhere.
 * Reached through globalThis so bundlers see no `process` reference to polyfill for browsers.
 */
export function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name]?.trim();
  return value === "" ? undefined : value;
}
