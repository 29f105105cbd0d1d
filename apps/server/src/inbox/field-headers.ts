/**
 * Header names, in lower case, that a message record holds as fields of its own, with the MIME framing of its
 * source: its `headers` never carries them (mail received leaves them out), and a source built from the record writes
 * them from those fields, leaving out an extra header of the same name.
 */
export const FIELD_HEADERS: ReadonlySet<string> = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "reply-to",
  "subject",
  "message-id",
  "date",
  "in-reply-to",
  "references",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
]);

/** The headers a record keeps of mail received: all but those it holds as fields of its own. */
export const withoutFieldHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !FIELD_HEADERS.has(name.toLowerCase())));
