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
    event.event_type === "message.delayed" &&
    !handled.has(event.event_id)
  ) {
    handled.add(event.event_id);
    // Nothing to do but wait: the service tries again, and a
    // message.delivered or message.bounced follows.
    const { delay } = event;
    for (const recipient of delay.recipients) {
      console.log(
        `${delay.message_id} to ${recipient.address} delayed (${recipient.status}), next try at ${delay.next_attempt_at}`,
      );
    }
  }
  return new Response(null, { status: 204 });
}
