import type { SendAttachment } from "@pigeonhole/inbox";
import { type FormEvent, useState } from "react";
import type { SampleApi } from "./api.ts";
import { useAction } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";

interface ComposeFormProps {
  api: SampleApi;
  inboxId: string;
  addresses: string[];
  onSent: () => void;
}

/** A new message from one inbox, with attachments from a file input. */
export function ComposeForm({ api, inboxId, addresses, onSent }: ComposeFormProps) {
  const send = useAction();
  const [sent, setSent] = useState<string>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    setSent(undefined);
    void send.run(async () => {
      const files = fields.getAll("attachments").filter((file): file is File => file instanceof File && file.size > 0);
      const attachments = await Promise.all(files.map(toAttachment));
      const to = String(fields.get("to"));
      await api.send(inboxId, {
        to,
        subject: String(fields.get("subject")),
        text: String(fields.get("text")),
        ...(attachments.length > 0 && { attachments }),
      });
      form.reset();
      setSent(`Sent to ${to}.`);
      onSent();
    });
  };
  return (
    <form className="compose" onSubmit={onSubmit} aria-label="Compose">
      <h3>New message from {inboxId}</h3>
      <input name="to" list="known-addresses" placeholder="to" aria-label="To" />
      <datalist id="known-addresses">
        {addresses
          .filter((address) => address !== inboxId)
          .map((address) => (
            <option key={address} value={address} />
          ))}
      </datalist>
      <input name="subject" placeholder="subject" aria-label="Subject" />
      <textarea name="text" placeholder="message" aria-label="Message" rows={3} />
      <input type="file" name="attachments" multiple aria-label="Attachments" />
      <button type="submit" disabled={send.pending}>
        {send.pending ? "Sending…" : "Send"}
      </button>
      {sent !== undefined && <output className="muted">{sent}</output>}
      <ProblemNotice error={send.problem} />
    </form>
  );
}

/** A file from the file input as the API takes it: base64 content inside the JSON body. */
function toAttachment(file: File): Promise<SendAttachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => {
      // The result is a data URL, `data:<type>;base64,<content>`.
      const dataUrl = String(reader.result);
      const content = dataUrl.slice(dataUrl.indexOf(",") + 1);
      resolve({ filename: file.name, content, content_type: file.type || "application/octet-stream" });
    };
    reader.readAsDataURL(file);
  });
}
