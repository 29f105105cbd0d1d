import MailComposer from "nodemailer/lib/mail-composer";
import type Mail from "nodemailer/lib/mailer";
import { describe, expect, it } from "vitest";
import { mimeNodeBytes } from "./mime-node-bytes.ts";

const message = (extra: Mail.Options): Mail.Options => ({
  from: "Ada Lovelace <ada@pigeonhole.test>",
  to: ["bob@example.com", "Carol <carol@example.org>"],
  bcc: ["hidden@example.net"],
  subject: "Hello",
  text: "Hello, Bob.",
  messageId: "<fixed@pigeonhole.test>",
  date: new Date("2026-11-25T10:00:00.000Z"),
  baseBoundary: "0123456789abcdef",
  ...extra,
});

const MESSAGES: Record<string, Mail.Options> = {
  "plain text": message({}),
  "bare line feeds and a final CR": message({ text: "one\ntwo\r\nthree\n\nfour\r" }),
  "leading line feeds": message({ text: "\n\nafter two empty lines" }),
  "html only": message({ text: undefined, html: "<p>Hi</p>\n<p>there</p>" }),
  "text and html": message({ html: "<b>bold</b>\r\n" }),
  "non-ASCII words and long lines": message({
    subject: "Grüße aus Köln — ünïcödé ".repeat(4),
    text: `Ça va? 日本語のテキスト\n${"x".repeat(300)}\n${"word ".repeat(100)}`,
  }),
  "attachments with line ends and binary bytes": message({
    attachments: [
      { filename: "note.txt", contentType: "text/plain", content: Buffer.from("line\nline\r\n") },
      { filename: "data.bin", contentType: "application/octet-stream", content: Buffer.from([0, 10, 13, 10, 255]) },
      { filename: "empty.txt", contentType: "text/plain", content: Buffer.alloc(0) },
    ],
  }),
  "reply headers and extra headers": message({
    inReplyTo: "<earlier@example.com>",
    references: ["<first@example.com>", "<earlier@example.com>"],
    replyTo: ["replies@example.com"],
    headers: [{ key: "X-Custom", value: "a value\nwith a line feed" }],
  }),
  "an empty body": message({ text: "" }),
};

/** What Nodemailer's own build writes with CRLF line ends. */
async function builtByNodemailer(options: Mail.Options): Promise<Buffer> {
  const node = new MailComposer({ ...options, newline: "\r\n" }).compile();
  node.keepBcc = true;
  return node.build();
}

describe("the bytes of a composed message", () => {
  it.each(Object.entries(MESSAGES))("are Nodemailer's build with CRLF line ends: %s", async (_name, options) => {
    const node = new MailComposer(options).compile();
    node.keepBcc = true;
    const bytes = await mimeNodeBytes(node);
    expect(bytes.toString("latin1")).toBe((await builtByNodemailer(options)).toString("latin1"));
    expect(bytes.toString("latin1")).not.toMatch(/[^\r]\n/);
  });
});
