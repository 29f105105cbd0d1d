import type { InboxClient } from "@pigeonhole/inbox";

/**
 * The application under test: it signs people up and mails them a code
 * and a link to verify their address, from its own inbox.
 */
export function createSignup(inbox: InboxClient, from: string) {
  const pending = new Map<string, { code: string; token: string }>();
  return {
    async signUp(address: string): Promise<void> {
      const code = String(
        Math.floor(100_000 + Math.random() * 900_000),
      );
      const token = crypto.randomUUID();
      pending.set(address, { code, token });
      await inbox.post("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: {
          to: address,
          subject: "Verify your address",
          text: `Your code is ${code}.`,
          html: `<p>Or <a href="https://app.example.com/verify?token=${token}">verify your address</a>.</p>`,
        },
      });
    },
    verifyCode(address: string, code: string): boolean {
      return pending.get(address)?.code === code;
    },
    verifyLink(link: string): boolean {
      const token = new URL(link).searchParams.get("token");
      return [...pending.values()].some(
        (entry) => entry.token === token,
      );
    },
  };
}
