// Sending slots: at most SENDING_SLOTS attempts to one subscription are in flight at once, so a slow or
// hanging receiver holds a few slots and never all of the sender's capacity. A slot is an item in the
// subscription's partition (`SLOT#<n>`) held until an instant; it is taken with a conditional put
// (free, or its holder's time is up: a crashed sender frees its slot by expiry) and given back by its
// holder. Access patterns: docs/data-model.md.
import * as z from 'zod';
import { ConditionRefused, defineEntity } from './entity.ts';

export const SENDING_SLOTS = 4;

export const SendingSlotEntity = defineEntity({
  name: 'sendingSlot',
  schema: z.object({ deliveryId: z.string(), until: z.int() }),
  key: ({ subscriptionId, slot }: { subscriptionId: string; slot: number }) => ({ pk: `WEBHOOK#${subscriptionId}`, sk: `SLOT#${slot}` }),
});

/** Takes a free slot of the subscription for a delivery until `untilMs`; undefined when all are held. */
export async function takeSendingSlot(subscriptionId: string, deliveryId: string, untilMs: number, nowMs: number): Promise<number | undefined> {
  const first = Math.floor(Math.random() * SENDING_SLOTS); // spread the contention over the slots
  for (let i = 0; i < SENDING_SLOTS; i++) {
    const slot = (first + i) % SENDING_SLOTS;
    try {
      await SendingSlotEntity.put({ deliveryId, until: untilMs }, { subscriptionId, slot }, { condition: { expression: 'attribute_not_exists(pk) OR #until < :now', names: { '#until': 'until' }, values: { ':now': nowMs } } });
      return slot;
    } catch (error) {
      if (!(error instanceof ConditionRefused)) throw error;
    }
  }
  return undefined;
}

/** Gives a slot back, if this delivery still holds it. */
export async function releaseSendingSlot(subscriptionId: string, slot: number, deliveryId: string): Promise<void> {
  try {
    await SendingSlotEntity.delete({ subscriptionId, slot }, { condition: { expression: 'deliveryId = :mine', values: { ':mine': deliveryId } } });
  } catch (error) {
    if (!(error instanceof ConditionRefused)) throw error;
  }
}
