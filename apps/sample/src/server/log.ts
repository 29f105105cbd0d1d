/** The server's log: one line on stderr. */
export function log(line: string): void {
  process.stderr.write(`[sample] ${line}\n`);
}
