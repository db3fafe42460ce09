// What a restricted key has spent, per UTC day and month (contract §5.2): one counter item per key,
// period and currency (`KEYSPEND#<keyId>` / `DAY#<yyyy-mm-dd>#<currency>`, `MONTH#<yyyy-mm>#<currency>`).
// An order charges them in its own transaction, each charge conditional on the counter still leaving
// room for it, so racing orders can never overspend; cancelling or declining the order gives the charge
// back to the counters it was taken from, in the transaction of that change. Counters expire (TTL) long
// after their period. Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import { defineEntity } from './entity.ts';
import type { TransactOperation } from './transactions.ts';

export type SpendPeriod = 'day' | 'month';

export const KeySpendEntity = defineEntity({
  name: 'keySpend',
  schema: z.object({
    keyId: z.string(),
    /** `DAY#2026-11-27` or `MONTH#2026-11`. */
    period: z.string(),
    currency: z.string(),
    /** Minor units of `currency` charged in the period by orders not cancelled or declined. */
    spent: z.int(),
    /** TTL (epoch seconds): well after the period, when no order of it can still be cancelled into it. */
    expiresAt: z.int(),
  }),
  key: ({ keyId, period, currency }: { keyId: string; period: string; currency: string }) => ({ pk: `KEYSPEND#${keyId}`, sk: `${period}#${currency}` }),
});
export type KeySpendItem = z.output<typeof KeySpendEntity.schema>;

/** What an order charged (stored on the order, so that its cancellation gives back exactly that). */
export interface SpendCharge {
  keyId: string;
  currency: string;
  amount: number;
  /** `DAY#<yyyy-mm-dd>` and `MONTH#<yyyy-mm>` of the order's creation (UTC). */
  day: string;
  month: string;
}

/** The UTC day and month `at` falls in, as counter periods. */
export function periodsOf(at: Date): Record<SpendPeriod, string> {
  const iso = at.toISOString();
  return { day: `DAY#${iso.slice(0, 10)}`, month: `MONTH#${iso.slice(0, 7)}` };
}

const DAY_SECONDS = 24 * 60 * 60;
/** Counters are kept this long after their period began: longer than an order lives before it can no longer be cancelled. */
const KEEP_SECONDS: Record<SpendPeriod, number> = { day: 400 * DAY_SECONDS, month: 800 * DAY_SECONDS };

function ttl(at: Date, period: SpendPeriod): number {
  return Math.floor(at.getTime() / 1000) + KEEP_SECONDS[period];
}

/**
 * Charges `charge.amount` to a counter of the key: with `limit`, on the condition that what was spent
 * leaves room for it (refused, as operation `spend-<period>`, with the counter as it was); without one,
 * it only counts.
 */
export function chargeOperation(charge: SpendCharge, period: SpendPeriod, limit: number | undefined, at: Date): TransactOperation {
  const { or, notExists, le } = KeySpendEntity.where;
  const room = limit === undefined ? undefined : or(notExists('spent'), le('spent', limit - charge.amount));
  return KeySpendEntity.updateOperation(
    `spend-${period}`,
    { keyId: charge.keyId, period: charge[period], currency: charge.currency },
    { add: { spent: charge.amount }, set: { keyId: charge.keyId, period: charge[period], currency: charge.currency, expiresAt: ttl(at, period) } },
    { allow: ['spent', 'keyId', 'period', 'currency', 'expiresAt'], condition: room },
  );
}

/** Gives an order's charge back to the counters it was taken from (the periods of the order's creation). */
export function refundOperations(charge: SpendCharge, at: Date): TransactOperation[] {
  return (['day', 'month'] as const).map((period) =>
    KeySpendEntity.updateOperation(
      `refund-${period}`,
      { keyId: charge.keyId, period: charge[period], currency: charge.currency },
      { add: { spent: -charge.amount }, set: { keyId: charge.keyId, period: charge[period], currency: charge.currency, expiresAt: ttl(at, period) } },
      { allow: ['spent', 'keyId', 'period', 'currency', 'expiresAt'] },
    ),
  );
}

/** What the key has spent in the periods of `at`, in `currency` (0 where nothing is counted yet). */
export async function spentIn(keyId: string, currency: string, at: Date): Promise<Record<SpendPeriod, number>> {
  const periods = periodsOf(at);
  const found = await KeySpendEntity.batchGet([
    { keyId, period: periods.day, currency },
    { keyId, period: periods.month, currency },
  ], { consistent: true });
  const spent = (period: string) => found.get(KeySpendEntity.keyId({ keyId, period, currency }))?.spent ?? 0;
  return { day: spent(periods.day), month: spent(periods.month) };
}
