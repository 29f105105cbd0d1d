import {
  verifyWebhook,
  WebhookVerificationError,
} from "@pigeonhole/inbox";

// The `secret` of the webhook (`whsec_...`), as Create Webhook answered
// it.
const secret = process.env.PIGEONHOLE_WEBHOOK_SECRET ?? "";

/**
 * A fetch-style handler (Hono, Bun, Deno, workers): verify first, then
 * act on the event.
 */
export async function handleDelivery(
  request: Request,
): Promise<Response> {
  try {
    // Verify the raw body, exactly as received: parsing and
    // re-serializing it would change the signature.
    const event = await verifyWebhook(
      await request.text(),
      request.headers,
      secret,
    );
    if (event.event_type === "message.received") {
      const { message, thread } = event;
      console.log(
        `${message.from} wrote to ${message.inbox_id}: ${message.subject}`,
      );
      console.log(
        `thread ${thread.thread_id} now holds ${thread.message_count} messages`,
      );
    }
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      return new Response("invalid signature", { status: 400 });
    }
    throw error;
  }
}
