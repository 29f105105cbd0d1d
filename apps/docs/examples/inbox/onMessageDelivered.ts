import {
  verifyWebhook,
  WebhookVerificationError,
} from "@pigeonhole/inbox";

const secret = process.env.PIGEONHOLE_WEBHOOK_SECRET ?? "";
// Deliveries are at-least-once: remember the event ids you handled (a
// database in production).
const handled = new Set<string>();

export async function handleDelivery(
  request: Request,
): Promise<Response> {
  let event: Awaited<ReturnType<typeof verifyWebhook>>;
  try {
    event = await verifyWebhook(
      await request.text(),
      request.headers,
      secret,
    );
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      return new Response("invalid signature", { status: 400 });
    }
    throw error;
  }
  if (
    event.event_type === "message.delivered" &&
    !handled.has(event.event_id)
  ) {
    handled.add(event.event_id);
    // The recipients the relay accepted; the others of the message
    // get events of their own.
    const { delivery } = event;
    console.log(
      `${delivery.message_id} delivered to ${delivery.recipients.join(", ")}`,
    );
  }
  return new Response(null, { status: 204 });
}
