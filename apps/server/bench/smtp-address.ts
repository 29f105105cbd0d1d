/** Where a server instance receives mail over SMTP. */
export interface SmtpAddress {
  host: string;
  port: number;
}

/**
 * The SMTP address the CLI printed among its others (`  SMTP       smtp://127.0.0.1:2525   mail for: ...`), or
 * undefined while that line has not come (or never will, with `--no-smtp`).
 */
export function parseSmtpAddress(stdout: string): SmtpAddress | undefined {
  const printed = /^\s*SMTP\s+(smtp:\/\/\S+)/m.exec(stdout)?.[1];
  if (printed === undefined) {
    return undefined;
  }
  const url = new URL(printed);
  const port = Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`The CLI printed an SMTP address without a port: ${printed}`);
  }
  // URL keeps an IPv6 host in brackets, which a socket's host must not have.
  return { host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}
