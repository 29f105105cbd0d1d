import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface DeliveredMessage {
  /** The envelope recipient (RCPT TO) the message was delivered for. */
  readonly recipient: string;
  /** The envelope sender (MAIL FROM); empty for a bounce. */
  readonly sender: string;
  /**
   * The message as stored: what the relay received, with the headers it adds on top (`Return-Path`,
   * `X-Original-To`, `Delivered-To` and its `Received`), so signatures over the original headers still verify.
   */
  readonly raw: Buffer;
}

/** A Maildir file name starts `<seconds>.` and holds `M<microseconds>`: the order of delivery. */
function deliveryTime(name: string): [number, number] {
  const seconds = Number(name.split(".")[0]);
  const micros = Number(/M(\d+)/.exec(name)?.[1] ?? 0);
  return [seconds, micros];
}

function byDeliveryTime(a: string, b: string): number {
  const [aSeconds, aMicros] = deliveryTime(a);
  const [bSeconds, bMicros] = deliveryTime(b);
  return aSeconds - bSeconds || aMicros - bMicros || a.localeCompare(b);
}

/** The first value of a header among the lines virtual(8) put on top of the message. */
function deliveryHeader(head: string, name: string): string | undefined {
  const line = head.split(/\r?\n/).find((each) => each.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** Every message in a Maildir's `new/`, oldest first. */
export async function readMaildir(maildir: string): Promise<DeliveredMessage[]> {
  const folder = join(maildir, "new");
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") {
      return []; // virtual(8) makes the Maildir with its first message
    }
    throw error;
  });
  names.sort(byDeliveryTime);
  return Promise.all(
    names.map(async (name) => {
      const raw = await readFile(join(folder, name));
      // virtual(8) writes Return-Path, then Delivered-To, before the message's own headers.
      const head = raw.subarray(0, 4096).toString("latin1");
      const recipient = deliveryHeader(head, "Delivered-To") ?? "";
      const sender = (deliveryHeader(head, "Return-Path") ?? "").replace(/^<|>$/g, "");
      return { recipient, sender, raw };
    }),
  );
}
