import {
  verifyWebhook,
  WebhookVerificationError,
} from "@pigeonhole/inbox";

const secret = process.env.PIGEONHOLE_WEBHOOK_SECRET ?? "";
// Deliveries are at-least-once: remember the event ids you handled (a
// database in production).
const handled = new Set<string>();
// Addresses not to write to again (a database in production).
const suppressed = new Set<string>();

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
    event.event_type === "message.complained" &&
    !handled.has(event.event_id)
  ) {
    handled.add(event.event_id);
    const { complaint } = event;
    for (const address of complaint.recipients) {
      suppressed.add(address);
      console.log(
        `${complaint.message_id} reported as ${complaint.type} by ${address}`,
      );
    }
  }
  return new Response(null, { status: 204 });
}
