# Both services on 127.0.0.1:4010 and :4020 with test control on,
# nothing written to disk, and webhooks allowed to reach receivers on
# your machine.
npx pigeonhole-server --memory --allow-private-webhooks
