import { readFileSync } from "node:fs";

/** A secret's file that cannot be read, or holds nothing: the server does not start without what it was told. */
export class SecretFileError extends Error {
  override name = "SecretFileError";
}

/**
 * The secret in the file a `_FILE` variable names, without the one line end an editor or `echo` leaves after it.
 * A missing, unreadable or empty file is refused, naming the variable and the path (never the contents).
 */
export function readSecretFile(path: string, variable: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SecretFileError(`${variable} names ${path}, which cannot be read: ${reason}`);
  }
  const secret = text.replace(/\r?\n$/, "");
  if (secret === "") {
    throw new SecretFileError(`${variable} names ${path}, which is empty.`);
  }
  return secret;
}
