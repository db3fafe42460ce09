// Trade records (contract §3 "Negotiation session", "Order", "Audit entry"): what buyers and sellers
// negotiate, order and follow. Unit prices are integers in the minor unit of the record's currency.
import * as z from 'zod';
import { idPattern } from '../ids.ts';
import { CountryCode, PaginationQuery, Timestamp, idParam, text } from './common.ts';
import { MAX_AMOUNT, Money } from './money.ts';
import { Cancellation, NegotiationStatus, OrderItemLine, OrderStatus, Party, Shipping } from './trade-parts.ts';

// The parts of trade records that events repeat live in ./trade-parts.ts (every function that records
// an event bundles them); they are part of this module's surface.
export { Cancellation, NEGOTIATION_STATUSES, NegotiationStatus, ORDER_STATUSES, OrderItemLine, OrderStatus, Party, Shipping } from './trade-parts.ts';

/** The contract's round limit: a session holds at most this many proposals (the opening one included). */
export const MAX_ROUNDS = 20;

/** The largest order total in minor units: an order's totalAmount is Money, whose amount is at most MAX_AMOUNT. */
export const MAX_ORDER_TOTAL = MAX_AMOUNT;

const Quantity = z.int('Must be a whole number of units').min(1, 'Must be at least 1').max(1_000_000_000, 'Must be at most 1000000000');
const UnitPrice = z
  .int('Must be an integer amount in the minor unit of the offer’s currency (cents for USD)')
  .min(1, 'Must be at least 1 (minor units of the offer’s currency)')
  .max(MAX_AMOUNT, `Must be at most ${MAX_AMOUNT}`).meta({ description: 'Integer unit price in the minor unit of the session’s currency', example: 1150 });
const Message = text({ max: 2000, multiline: true });

export const NegotiationAction = z.enum(['propose', 'counter', 'accept', 'reject']).meta({ id: 'NegotiationAction' });

export const NegotiationMove = z
  .object({
    round: z.int(),
    by: Party,
    action: NegotiationAction.meta({ description: 'propose: the opening proposal; counter; accept; reject (extension)' }),
    unitPrice: z.int().meta({ description: 'The unit price on the table after this move' }),
    quantity: z.int(),
    message: z.string().nullable(),
    automatic: z.boolean().meta({ description: 'Made on the seller’s behalf by the offer’s negotiation policy (extension)' }),
    at: Timestamp,
  })
  .meta({ id: 'NegotiationMove' });
export type NegotiationMove = z.infer<typeof NegotiationMove>;

export const NegotiationSession = z
  .object({
    sessionId: z.string().meta({ example: 'neg_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }),
    offerId: z.string(),
    productId: z.string(),
    buyerId: z.string(),
    sellerId: z.string(),
    status: NegotiationStatus,
    currency: z.string().meta({ example: 'USD' }),
    quantity: z.int().meta({ description: 'Units on the table' }),
    unitPrice: z.int().meta({ description: 'Unit price on the table, minor units of `currency`' }),
    turn: Party.nullable().meta({ description: 'Who must answer; null once the session is no longer open' }),
    round: z.int(),
    maxRounds: z.int(),
    history: z.array(NegotiationMove),
    expiresAt: Timestamp.nullable().meta({ description: 'When an open session expires (72 h after the last move); null once closed' }),
    acceptedAt: Timestamp.nullable(),
    orderId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'NegotiationSession' });
export type NegotiationSession = z.infer<typeof NegotiationSession>;

export const StartNegotiationRequest = z
  .strictObject({
    offerId: z.string().regex(idPattern('offer'), 'Must be an offer id (ofr_…)'),
    quantity: Quantity,
    unitPrice: UnitPrice.optional().meta({ description: 'Proposed unit price; default the offer’s price for this quantity' }),
    message: Message.optional(),
  })
  .meta({ id: 'StartNegotiationRequest' });

export const CounterRequest = z
  .strictObject({
    unitPrice: UnitPrice,
    quantity: Quantity.optional().meta({ description: 'Default: the quantity on the table' }),
    message: Message.optional(),
  })
  .meta({ id: 'CounterRequest' });

export const MoveNoteRequest = z.strictObject({ message: Message.optional() }).meta({ id: 'MoveNoteRequest' });

export const SessionIdParams = z.strictObject({ sessionId: idParam(idPattern('negotiation'), 'a negotiation session id (neg_…)') });

export const ListNegotiationsQuery = PaginationQuery.extend({
  status: NegotiationStatus.optional().meta({ description: 'Default open' }),
});

// Orders

export const ShippingAddress = z
  .strictObject({
    name: text({ min: 1, max: 200 }),
    line1: text({ min: 1, max: 200 }),
    line2: text({ max: 200 }).optional(),
    city: text({ min: 1, max: 100 }),
    region: text({ max: 100 }).optional(),
    postalCode: text({ max: 20 }).optional(),
    country: CountryCode,
  })
  .meta({ id: 'ShippingAddress' });

export const Order = z
  .object({
    orderId: z.string().meta({ example: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }),
    sessionId: z.string(),
    offerId: z.string(),
    buyerId: z.string(),
    sellerId: z.string(),
    items: z.array(OrderItemLine),
    totalAmount: Money,
    status: OrderStatus,
    shipping: Shipping.nullable(),
    cancellation: Cancellation.nullable(),
    buyerReference: z.string().nullable(),
    shippingAddress: ShippingAddress.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof Order>;

export const CreateOrderRequest = z
  .strictObject({
    sessionId: z.string().regex(idPattern('negotiation'), 'Must be a negotiation session id (neg_…)'),
    buyerReference: text({ min: 1, max: 200 }).optional().meta({ description: 'The buyer’s own reference, e.g. a purchase order number' }),
    shippingAddress: ShippingAddress.optional(),
  })
  .meta({ id: 'CreateOrderRequest' });

export const ShipOrderRequest = z
  .strictObject({
    carrier: text({ min: 1, max: 100 }),
    trackingNumber: text({ min: 1, max: 100 }),
    trackingUrl: z.url({ protocol: /^https?$/, error: 'Must be an absolute http(s) URL' }).max(2048).optional(),
  })
  .meta({ id: 'ShipOrderRequest' });

export const CancelOrderRequest = z.strictObject({ reason: text({ min: 1, max: 500 }).optional() }).meta({ id: 'CancelOrderRequest' });

export const OrderIdParams = z.strictObject({ id: idParam(idPattern('order'), 'an order id (ord_…)') });

export const ListOrdersQuery = PaginationQuery.extend({
  status: OrderStatus.optional(),
  role: Party.optional().meta({ description: 'Orders in which the caller is this party (an agent has one role: the other gives an empty list)' }),
});

export const AuditActor = z.union([z.object({ agentId: z.string(), role: Party }), z.literal('system')]).meta({ id: 'AuditActor' });

export const AuditEntry = z
  .object({
    entryId: z.string().meta({ example: 'aud_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }),
    orderId: z.string(),
    sequence: z.int().min(1),
    at: Timestamp,
    actor: AuditActor,
    action: z.enum(['create', 'confirm', 'ship', 'deliver', 'complete', 'cancel']),
    fromStatus: OrderStatus.nullable(),
    toStatus: OrderStatus,
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;
