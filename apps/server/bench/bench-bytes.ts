/** The largest attachment the benchmark sends: the API takes at most 10 MiB of attachments per message. */
export const MAX_BENCH_BYTES = 10 * 1024 * 1024;

/**
 * `size` bytes of the same pseudo-random content on every call, so that the server's attachment and the ceiling's
 * answer are the same bytes; random rather than repeated so that nothing on the way can compress them.
 */
export function benchBytes(size: number): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(size) || size < 0 || size > MAX_BENCH_BYTES) {
    throw new RangeError(`The benchmark's content is 0 to ${MAX_BENCH_BYTES} bytes, not ${size}.`);
  }
  const bytes = new Uint8Array(size);
  // xorshift32, seeded by the size: fast, and enough to defeat compression.
  let state = (size ^ 0x9e3779b9) >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/** A size as people read it: `4 KiB`, `1 MiB`, or bytes below 1 KiB. */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) {
    return `${bytes / (1024 * 1024)} MiB`;
  }
  if (bytes >= 1024 && bytes % 1024 === 0) {
    return `${bytes / 1024} KiB`;
  }
  return `${bytes} B`;
}
