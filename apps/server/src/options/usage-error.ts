/** A command line the CLI cannot run: it says why, prints its usage and exits with status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
