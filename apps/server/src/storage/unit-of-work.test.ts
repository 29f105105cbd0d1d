import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, openTestStorage } from "../../test/support/test-database.ts";
import type { ServerDatabase } from "./database.ts";
import type { NewRecipientDelivery } from "./inbox/recipient-deliveries.ts";
import type { Storage } from "./open-storage.ts";
import type { SqlDialect } from "./sql-dialect.ts";
import type { Produced } from "./unit-of-work.ts";
import { UnitsOfWork } from "./unit-of-work.ts";

const NOW = Date.parse("2026-11-25T10:00:00.000Z");
const AT = new Date(NOW).toISOString();

const event = (podId: string, n: number) => ({
  podId,
  inboxId: `${podId}@example.test`,
  eventId: `evt_${podId}_${n}`,
  eventType: "message.sent",
  payload: "{}",
});

const recipient = (address: string, status: NewRecipientDelivery["status"]): NewRecipientDelivery => ({
  podId: "pod-a",
  inboxId: "pod-a@example.test",
  messageId: `<${address}>`,
  address,
  status,
  updatedAt: AT,
  nextAttemptAtMs: status === "queued" ? NOW : null,
});

describe("the stores' units of work", () => {
  let storage: Storage;
  let heard: Produced[];
  beforeAll(async () => {
    storage = await openTestStorage();
    storage.announceCommitsTo({ announce: (produced) => heard.push(produced) });
  });
  afterAll(() => storage.close());
  beforeEach(() => {
    heard = [];
  });

  it("announce once, after the commit, the pods with events, the webhook deliveries and the mail for the relay", async () => {
    await storage.sends.inSendTransaction(async (tx) => {
      await tx.insertRecipientDeliveries([
        recipient("a@example.com", "queued"),
        recipient("b@example.com", "captured"),
      ]);
      await tx.enqueueDeliveries(
        [
          {
            webhookId: "wh_1",
            inboxId: "pod-a@example.test",
            eventId: "evt_1",
            eventType: "message.sent",
            payload: "{}",
          },
        ],
        AT,
        NOW,
      );
      await tx.appendEvents([event("pod-a", 1), event("pod-b", 1), event("pod-a", 2)], NOW);
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([{ eventPods: ["pod-a", "pod-b"], deliveries: 1, queuedMail: 1 }]);
  });

  it("announce nothing of a transaction that rolled back, nor of one that stored nothing for others", async () => {
    const failure = new Error("rolled back");
    await expect(
      storage.sends.inSendTransaction(async (tx) => {
        await tx.appendEvents([event("pod-c", 1)], NOW);
        throw failure;
      }),
    ).rejects.toBe(failure);
    await storage.sends.inSendTransaction((tx) => tx.insertRecipientDeliveries([recipient("c@example.com", "local")]));
    expect(heard).toEqual([]);
  });

  it("announce a redelivery, which makes a delivery due again", async () => {
    await storage.sends.inSendTransaction((tx) =>
      tx.enqueueDeliveries(
        [
          {
            webhookId: "wh_2",
            inboxId: "pod-a@example.test",
            eventId: "evt_2",
            eventType: "message.sent",
            payload: "{}",
          },
        ],
        AT,
        NOW,
      ),
    );
    const [delivery] = await storage.webhooks.listDeliveries("wh_2", {}, { limit: 1 });
    heard = [];
    expect(await storage.webhooks.redeliver("wh_2", "dlv_none", NOW, AT)).toBeNull();
    expect(heard).toEqual([]);
    await storage.webhooks.redeliver("wh_2", delivery?.row.delivery.delivery_id ?? "", NOW, AT);
    expect(heard).toEqual([{ eventPods: [], deliveries: 1, queuedMail: 0 }]);
  });
});

describe("a unit of work run again after a transient conflict", () => {
  let db: ServerDatabase;
  let dialect: SqlDialect;
  beforeAll(async () => {
    [db, dialect] = await openTestDatabase(2);
  });
  afterAll(() => db.destroy());

  it("announces what the attempt that committed produced, not what the aborted one had recorded", async () => {
    const conflict = new Error("deadlock detected");
    const units = new UnitsOfWork(db, { ...dialect, isTransientConflict: (error) => error === conflict });
    const heard: Produced[] = [];
    units.announceTo({ announce: (produced) => heard.push(produced) });
    let attempts = 0;
    await units.run(async (_trx, unit) => {
      attempts++;
      unit.eventsStored(`pod-${attempts}`);
      if (attempts === 1) {
        unit.deliveriesEnqueued(3);
        throw conflict;
      }
    });
    expect(heard).toEqual([{ eventPods: ["pod-2"], deliveries: 0, queuedMail: 0 }]);
  });
});
