// The parts of trade records (./trade.ts) that event payloads repeat: parties, statuses, order lines,
// shipping and cancellation. A module of their own so that functions recording events bundle these and
// not every trade request schema.
import * as z from 'zod';
import { Timestamp } from './common.ts';

export const Party = z.enum(['buyer', 'seller']).meta({ id: 'Party' });
export type Party = z.infer<typeof Party>;

export const NEGOTIATION_STATUSES = ['open', 'accepted', 'rejected', 'expired', 'ordered'] as const;
export const NegotiationStatus = z.enum(NEGOTIATION_STATUSES).meta({ id: 'NegotiationStatus' });
export type NegotiationStatus = z.infer<typeof NegotiationStatus>;

export const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'completed', 'cancelled'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES).meta({ id: 'OrderStatus' });
export type OrderStatus = z.infer<typeof OrderStatus>;

export const OrderItemLine = z
  .object({ productId: z.string(), quantity: z.int(), unitPrice: z.int().meta({ description: 'Minor units of totalAmount.currency' }) })
  .meta({ id: 'OrderItem' });

export const Shipping = z
  .object({ carrier: z.string(), trackingNumber: z.string(), trackingUrl: z.string().nullable(), shippedAt: Timestamp })
  .meta({ id: 'Shipping' });

export const Cancellation = z.object({ by: Party, reason: z.string().nullable(), at: Timestamp }).meta({ id: 'Cancellation' });
