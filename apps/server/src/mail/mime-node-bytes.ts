import { PassThrough } from "node:stream";
import type MimeNode from "nodemailer/lib/mime-node";

const LF = 0x0a;
const CR = 0x0d;

/**
 * The bytes of a composed message, as Nodemailer's `build()` with `newline: "\r\n"` writes them: the node streamed
 * into one buffer, ending with a line end, every line end CRLF. `build()` wraps the node's output in two stream
 * pipelines that do those last two steps, and they cost about as much as composing the message itself; here they are
 * done on the collected bytes. `mime-node-bytes.test.ts` holds the two to the same bytes.
 */
export async function mimeNodeBytes(node: MimeNode): Promise<Buffer> {
  return withCrlfLineEnds(withFinalLineEnd(await streamed(node)));
}

function streamed(node: MimeNode): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on("data", (chunk: Buffer) => chunks.push(chunk));
    output.on("end", () => resolve(Buffer.concat(chunks)));
    output.on("error", reject);
    node.stream(output, {}, (error) => (error ? output.destroy(error) : output.end()));
  });
}

/** A line end after the last line, unless it has one: CRLF, or LF after a final CR. */
function withFinalLineEnd(bytes: Buffer): Buffer {
  const last = bytes.at(-1);
  return last === LF ? bytes : Buffer.concat([bytes, Buffer.from(last === CR ? "\n" : "\r\n")]);
}

/** Every LF that no CR precedes becomes CRLF. */
function withCrlfLineEnds(bytes: Buffer): Buffer {
  const bareLineFeeds: number[] = [];
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) {
    if (at === 0 || bytes[at - 1] !== CR) {
      bareLineFeeds.push(at);
    }
  }
  if (bareLineFeeds.length === 0) {
    return bytes;
  }
  const parts: Buffer[] = [];
  let from = 0;
  for (const at of bareLineFeeds) {
    parts.push(bytes.subarray(from, at), CRLF);
    from = at + 1;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

const CRLF = Buffer.from("\r\n");
