// Sending slots: at most SENDING_SLOTS attempts to one subscription are in flight at once, so a slow or
// hanging receiver holds a few senders and never all of the sender's capacity. A slot is an item in the
// subscription's partition (`SLOT#<n>`) held by one sending lane until an instant: the lane sends its
// deliveries to that subscription one after another, so a slot is one attempt in flight. It is taken
// with a conditional put (free, or its holder's time is up: a crashed sender frees its slot by expiry)
// and given back by its holder, in the transaction that records the lane's attempts. The slot names
// the deliveries its lane holds, so a duplicate queue message for one of them is recognised and left
// alone. Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import { ConditionRefused, defineEntity } from './entity.ts';
import type { TransactOperation } from './transactions.ts';

export const SENDING_SLOTS = 4;

export const SendingSlotEntity = defineEntity({
  name: 'sendingSlot',
  schema: z.object({
    /** The lane holding the slot (a random id per lane). */
    laneId: z._default(z.string(), ''),
    /** The deliveries the lane sends. */
    deliveryIds: z._default(z.array(z.string()), []),
    /** Epoch milliseconds: the hold ends then, whether or not it was given back. */
    until: z.int(),
  }),
  key: ({ subscriptionId, slot }: { subscriptionId: string; slot: number }) => ({ pk: `WEBHOOK#${subscriptionId}`, sk: `SLOT#${slot}` }),
});

export interface HeldSlot {
  slot: number;
  deliveryIds: readonly string[];
}

/** The slots of each subscription held at `nowMs` (one BatchGetItem for all of them). */
export async function heldSendingSlots(subscriptionIds: readonly string[], nowMs: number): Promise<Map<string, HeldSlot[]>> {
  const keys = subscriptionIds.flatMap((subscriptionId) => Array.from({ length: SENDING_SLOTS }, (_, slot) => ({ subscriptionId, slot })));
  const found = await SendingSlotEntity.batchGet(keys, { consistent: true });
  const held = new Map<string, HeldSlot[]>(subscriptionIds.map((subscriptionId) => [subscriptionId, []]));
  for (const key of keys) {
    const slot = found.get(SendingSlotEntity.keyId(key));
    if (slot && slot.until > nowMs) held.get(key.subscriptionId)?.push({ slot: key.slot, deliveryIds: slot.deliveryIds });
  }
  return held;
}

/**
 * Takes one of `candidates` (slots that were free when read) for a lane until `untilMs`; undefined when
 * another sender took each of them first.
 */
export async function takeSendingSlot(subscriptionId: string, lane: { laneId: string; deliveryIds: readonly string[] }, candidates: readonly number[], untilMs: number, nowMs: number): Promise<number | undefined> {
  for (const slot of candidates) {
    try {
      await SendingSlotEntity.put({ laneId: lane.laneId, deliveryIds: [...lane.deliveryIds], until: untilMs }, { subscriptionId, slot }, { condition: SendingSlotEntity.where.or(SendingSlotEntity.where.notExists('pk'), SendingSlotEntity.where.lt('until', nowMs)) });
      return slot;
    } catch (error) {
      if (!(error instanceof ConditionRefused)) throw error;
    }
  }
  return undefined;
}

const heldBy = (laneId: string) => SendingSlotEntity.where.eq('laneId', laneId);

/**
 * Names fewer deliveries in a slot this lane holds (those it hands back to the queue before starting
 * them), so that the lane that receives them again does not take them for another sender's.
 */
export async function narrowSendingSlot(subscriptionId: string, slot: number, lane: { laneId: string; deliveryIds: readonly string[] }, untilMs: number): Promise<void> {
  try {
    await SendingSlotEntity.put({ laneId: lane.laneId, deliveryIds: [...lane.deliveryIds], until: untilMs }, { subscriptionId, slot }, { condition: heldBy(lane.laneId) });
  } catch (error) {
    // Not this lane's any more (its lease ended and another took it): it names none of these.
    if (!(error instanceof ConditionRefused)) throw error;
  }
}

/** Gives a slot back inside a transaction, if this lane still holds it. */
export function releaseSendingSlotOperation(name: string, subscriptionId: string, slot: number, laneId: string): TransactOperation {
  return SendingSlotEntity.deleteOperation(name, { subscriptionId, slot }, heldBy(laneId));
}

/** Gives a slot back, if this lane still holds it. */
export async function releaseSendingSlot(subscriptionId: string, slot: number, laneId: string): Promise<void> {
  try {
    await SendingSlotEntity.delete({ subscriptionId, slot }, { condition: heldBy(laneId) });
  } catch (error) {
    if (!(error instanceof ConditionRefused)) throw error;
  }
}
