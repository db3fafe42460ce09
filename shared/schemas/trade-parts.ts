// The parts of trade records (./trade.ts) that event payloads repeat: parties, statuses, order lines,
// shipping and cancellation. A module of their own so that functions recording events bundle these and
// not every trade request schema.
import * as z from './zod.ts';
import { TEXT_PATTERN_SINGLE_LINE, Timestamp, bounded, boundedInt, idOf } from './common.ts';
import { MAX_AMOUNT } from './money.ts';

export const Party = z.annotated(z.enum(['buyer', 'seller']), { id: 'Party' });
export type Party = z.infer<typeof Party>;

/** The contract's round limit: a session holds at most this many proposals (the opening one included). */
export const MAX_ROUNDS = 20;

export const NEGOTIATION_STATUSES = ['open', 'accepted', 'rejected', 'expired', 'ordered'] as const;
export const NegotiationStatus = z.annotated(z.enum(NEGOTIATION_STATUSES), { id: 'NegotiationStatus' });
export type NegotiationStatus = z.infer<typeof NegotiationStatus>;

/**
 * `awaiting_approval`: placed with a restricted key over its `approvalAbove` limit, waiting for the main
 * key (stock and spend held, invisible to the seller); `declined`: refused by the main key, or not
 * approved in time (everything released).
 */
export const ORDER_STATUSES = ['awaiting_approval', 'pending', 'confirmed', 'shipped', 'delivered', 'completed', 'cancelled', 'declined'] as const;
export const OrderStatus = z.annotated(z.enum(ORDER_STATUSES), { id: 'OrderStatus' });
export type OrderStatus = z.infer<typeof OrderStatus>;

/** The product's sku and its title when the session began: a product renamed later leaves the trade's records as they were (docs/decisions/trade-item-titles.md). */
export const TradedSku = bounded(100, { pattern: '^[\\x21-\\x7E]{1,100}$' });
export const TradedTitle = z.nullable(bounded(300, { pattern: TEXT_PATTERN_SINGLE_LINE }));

export const OrderItemLine = z.annotated(z.object({
  productId: idOf('product'),
  sku: TradedSku,
  title: TradedTitle,
  quantity: boundedInt(1, 1_000_000_000),
  unitPrice: boundedInt(1, MAX_AMOUNT, { description: 'Integer in the minor unit of totalAmount.currency' }),
}), { id: 'OrderItem' });

export const Shipping = z.annotated(z.object({
  carrier: bounded(100, { pattern: TEXT_PATTERN_SINGLE_LINE }),
  trackingNumber: bounded(100, { pattern: TEXT_PATTERN_SINGLE_LINE }),
  trackingUrl: z.nullable(bounded(2048, { format: 'uri' })),
  shippedAt: Timestamp,
}), { id: 'Shipping' });

export const Cancellation = z.annotated(
  z.object({ by: Party, reason: z.nullable(bounded(500, { pattern: TEXT_PATTERN_SINGLE_LINE })), at: Timestamp }),
  { id: 'Cancellation' },
);
