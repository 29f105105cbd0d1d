// A byte-level rule of RFC 5322 sources, shared by the inbox (what recipients and the relay get) and a migration
// that split stored copies: it imports nothing of the rooms.

const HEADER_END = Buffer.from("\r\n\r\n");

/**
 * The source without its `Bcc` field (and the field's folded lines): what the recipients of a message receive. A
 * source with no `Bcc` is answered unchanged.
 */
export function withoutBcc(source: Uint8Array): Uint8Array {
  const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const headerEnd = bytes.indexOf(HEADER_END);
  const headerLength = headerEnd === -1 ? bytes.length : headerEnd + 2;
  const lines = bytes
    .subarray(0, headerLength)
    .toString("latin1")
    .split(/(?<=\r\n)/);
  const kept: string[] = [];
  let inBcc = false;
  for (const line of lines) {
    const continues = line.startsWith(" ") || line.startsWith("\t");
    inBcc = continues ? inBcc : /^bcc:/i.test(line);
    if (!inBcc) {
      kept.push(line);
    }
  }
  if (kept.length === lines.length) {
    return source;
  }
  return new Uint8Array(Buffer.concat([Buffer.from(kept.join(""), "latin1"), bytes.subarray(headerLength)]));
}
