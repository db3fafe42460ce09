// Trade records (contract §3 "Negotiation session", "Order", "Audit entry"): what buyers and sellers
// negotiate, order and follow. Unit prices are integers in the minor unit of the record's currency.
import * as z from './zod.ts';
import { MAX_ROUNDS } from './trade-parts.ts';
import { idPattern } from '../ids.ts';
import { CountryCode, PaginationQuery, TEXT_PATTERN_MULTI_LINE, TEXT_PATTERN_SINGLE_LINE, Timestamp, bounded, boundedInt, idOf, idParam, text } from './common.ts';
import { MAX_AMOUNT, Money } from './money.ts';
import { Cancellation, NegotiationStatus, OrderItemLine, OrderStatus, Party, Shipping, TradedSku, TradedTitle } from './trade-parts.ts';

// The parts of trade records that events repeat live in ./trade-parts.ts (every function that records
// an event bundles them); they are part of this module's surface.
export { Cancellation, NEGOTIATION_STATUSES, NegotiationStatus, ORDER_STATUSES, OrderItemLine, OrderStatus, Party, Shipping } from './trade-parts.ts';

export { MAX_ROUNDS } from './trade-parts.ts';

/** The largest order total in minor units: an order's totalAmount is Money, whose amount is at most MAX_AMOUNT. */
export const MAX_ORDER_TOTAL = MAX_AMOUNT;

export const Quantity = z.int('Must be a whole number of units').check(z.gte(1, 'Must be at least 1'), z.lte(1_000_000_000, 'Must be at most 1000000000'));
/**
 * A proposed unit price: documented as an integer of the minor unit, and checked to be a whole number by
 * the negotiation itself (trade-terms.ts), which knows the currency and so names its unit in the refusal
 * (EUR cents, whole yen for JPY, BHD fils).
 */
export const UnitPrice = z.annotated(z.number('Must be a number: the unit price in the minor unit of the offer’s currency').check(
  z.gte(1, 'Must be at least 1 (in the minor unit of the offer’s currency)'),
  z.lte(MAX_AMOUNT, `Must be at most ${MAX_AMOUNT}`),
), { description: 'Unit price in minor units of the session’s currency', example: 1150, type: 'integer' });
const Message = text({ max: 2000, multiline: true });

export const NegotiationAction = z.annotated(z.enum(['propose', 'counter', 'accept', 'reject']), { id: 'NegotiationAction' });

export const NegotiationMove = z.annotated(z.object({
  round: boundedInt(1, MAX_ROUNDS),
  by: Party,
  action: z.withMeta(NegotiationAction, { description: 'propose (the opening), counter, accept, reject (extension)' }),
  unitPrice: boundedInt(1, MAX_AMOUNT, { description: 'Unit price on the table after this move, in minor units' }),
  quantity: boundedInt(1, 1_000_000_000),
  message: z.nullable(bounded(2000, { pattern: TEXT_PATTERN_MULTI_LINE })),
  automatic: z.annotated(z.boolean(), { description: 'Made by the offer’s negotiation policy (extension)' }),
  at: Timestamp,
}), { id: 'NegotiationMove' });
export type NegotiationMove = z.infer<typeof NegotiationMove>;

export const NegotiationSession = z.annotated(z.object({
  sessionId: idOf('negotiation', { description: 'Counter, accept or reject with it; order with it once accepted' }),
  offerId: idOf('offer'),
  productId: idOf('product'),
  sku: TradedSku,
  title: TradedTitle,
  buyerId: idOf('agent'),
  sellerId: idOf('agent'),
  status: NegotiationStatus,
  currency: bounded(3, { pattern: '^[A-Z]{3}$', description: 'The offer’s currency: every price of the session is in it', example: 'EUR' }),
  quantity: boundedInt(1, 1_000_000_000, { description: 'Units on the table' }),
  unitPrice: boundedInt(1, MAX_AMOUNT, { description: 'Unit price on the table, in minor units of `currency`' }),
  turn: z.annotated(z.nullable(Party), { description: 'Who must answer; null once closed' }),
  round: boundedInt(1, MAX_ROUNDS, { description: 'Proposals so far, the opening one included' }),
  maxRounds: boundedInt(MAX_ROUNDS, MAX_ROUNDS),
  history: z.annotated(z.array(NegotiationMove), { maxItems: MAX_ROUNDS + 1, description: 'Every move, oldest first' }),
  expiresAt: z.annotated(z.nullable(Timestamp), { description: '72 h after the last move; null once closed' }),
  acceptedAt: z.nullable(Timestamp),
  orderId: z.nullable(idOf('order', { description: 'The order placed from it (status ordered)' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'NegotiationSession' });
export type NegotiationSession = z.infer<typeof NegotiationSession>;

export const StartNegotiationRequest = z.annotated(z.strictObject({
  offerId: z.annotated(z.string().check(z.regex(idPattern('offer'), 'Must be an offer id (ofr_…)')), { maxLength: 30, description: 'From a search result, or a product’s offers' }),
  quantity: Quantity,
  unitPrice: z.annotated(z.optional(UnitPrice), { description: 'Proposed unit price; default: the offer’s for this quantity' }),
  message: z.optional(Message),
}), { id: 'StartNegotiationRequest' });

export const CounterRequest = z.annotated(z.strictObject({
  unitPrice: UnitPrice,
  quantity: z.annotated(z.optional(Quantity), { description: 'Default: the quantity on the table' }),
  message: z.optional(Message),
}), { id: 'CounterRequest' });

export const MoveNoteRequest = z.annotated(z.strictObject({ message: z.optional(Message) }), { id: 'MoveNoteRequest' });

export const SessionIdParams = z.strictObject({ sessionId: idParam(idPattern('negotiation'), 'a negotiation session id (neg_…)', 'neg_01M83TK1C0AGPSWHZZWGW1WEGM') });

export const ListNegotiationsQuery = z.extend(PaginationQuery, {
  status: z.annotated(z.optional(NegotiationStatus), { description: 'Default open' }),
});

// Orders

export const ShippingAddress = z.annotated(z.strictObject({
  name: text({ min: 1, max: 200 }),
  line1: text({ min: 1, max: 200 }),
  line2: z.optional(text({ max: 200 })),
  city: text({ min: 1, max: 100 }),
  region: z.optional(text({ max: 100 })),
  postalCode: z.optional(text({ max: 20 })),
  country: CountryCode,
}), { id: 'ShippingAddress' });

/** How an order placed over its key's `approvalAbove` limit waits for, and gets, the main key's decision. */
export const OrderApproval = z.annotated(z.object({
  keyId: idOf('key', { description: 'The restricted key that placed the order' }),
  keyName: bounded(100, { pattern: TEXT_PATTERN_SINGLE_LINE }),
  approvalAbove: z.withMeta(Money, { description: 'The key’s limit the order went over' }),
  expiresAt: Timestamp,
  decision: z.annotated(z.nullable(z.enum(['approved', 'declined'])), { description: 'Null while it waits' }),
  decidedAt: z.nullable(Timestamp),
  decidedByKeyId: z.annotated(z.nullable(idOf('key')), { description: 'The main key that decided; null while it waits and when it expired' }),
  reason: z.annotated(z.nullable(bounded(500, { pattern: TEXT_PATTERN_SINGLE_LINE })), { description: 'Why it was declined: the owner’s words, or `approval_expired`' }),
}), { id: 'OrderApproval', description: 'Unanswered by `expiresAt`, the order is declined (`approval_expired`)' });
export type OrderApproval = z.infer<typeof OrderApproval>;

export const Order = z.annotated(z.object({
  orderId: idOf('order'),
  sessionId: idOf('negotiation'),
  offerId: idOf('offer'),
  buyerId: idOf('agent'),
  sellerId: idOf('agent'),
  items: z.annotated(z.array(OrderItemLine), { maxItems: 1 }),
  totalAmount: z.withMeta(Money, { description: 'quantity × unitPrice, in minor units' }),
  status: OrderStatus,
  shipping: z.nullable(Shipping),
  cancellation: z.nullable(Cancellation),
  buyerReference: z.nullable(bounded(200, { pattern: TEXT_PATTERN_SINGLE_LINE })),
  shippingAddress: z.nullable(ShippingAddress),
  approval: z.annotated(z.optional(OrderApproval), { description: 'Buyers only, on an order that needed the main key’s approval' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'Order' });
export type Order = z.infer<typeof Order>;

/** What the dry run says of each limit of the key: the limit, and what is left of it before this order. */
const LimitLeft = z.annotated(z.object({ limit: Money, remaining: Money }), { id: 'LimitLeft' });

export const LimitsPreview = z.annotated(z.object({
  maxOrderAmount: z.optional(LimitLeft),
  spendPerDay: z.annotated(z.optional(LimitLeft), { description: 'Left today (UTC) before this order' }),
  spendPerMonth: z.annotated(z.optional(LimitLeft), { description: 'Left this month (UTC) before this order' }),
  approvalAbove: z.optional(z.object({ limit: Money, required: z.annotated(z.boolean(), { description: 'This order would wait for approval' }) })),
}), { id: 'LimitsPreview', description: 'The key’s limits; null for a key without limits' });
export type LimitsPreview = z.infer<typeof LimitsPreview>;

/** `dryRun: true`: the order as it would be created (nothing written) and what is left of the key's limits. */
export const OrderPreview = z.annotated(z.extend(Order, {
  dryRun: z.literal(true),
  limits: z.nullable(LimitsPreview),
}), { id: 'OrderPreview' });
export type OrderPreview = z.infer<typeof OrderPreview>;

export const CreateOrderRequest = z.annotated(z.strictObject({
  sessionId: z.annotated(
    z.string().check(z.regex(idPattern('negotiation'), 'Must be a negotiation session id (neg_…)')),
    { maxLength: 30, description: 'An accepted session of the caller’s' },
  ),
  buyerReference: z.annotated(z.optional(text({ min: 1, max: 200 })), { description: 'Your reference, e.g. a purchase order number' }),
  shippingAddress: z.optional(ShippingAddress),
  dryRun: z.annotated(z.optional(z.boolean()), { description: 'true: answer 200 with the order as it would be created and the key’s limits left, or the error it would get; nothing is written' }),
}), { id: 'CreateOrderRequest' });

export const DeclineOrderRequest = z.annotated(z.strictObject({ reason: z.optional(text({ min: 1, max: 500 })) }), { id: 'DeclineOrderRequest' });

export const ShipOrderRequest = z.annotated(z.strictObject({
  carrier: text({ min: 1, max: 100 }),
  trackingNumber: text({ min: 1, max: 100 }),
  trackingUrl: z.optional(z.url({ protocol: /^https?$/, error: 'Must be an absolute http(s) URL' }).check(z.maxLength(2048))),
}), { id: 'ShipOrderRequest' });

export const CancelOrderRequest = z.annotated(z.strictObject({ reason: z.optional(text({ min: 1, max: 500 })) }), { id: 'CancelOrderRequest' });

export const OrderIdParams = z.strictObject({ id: idParam(idPattern('order'), 'an order id (ord_…)', 'ord_01M83TRH50MAGDC7K060BRRBKW') });

export const ListOrdersQuery = z.extend(PaginationQuery, {
  status: z.optional(OrderStatus),
  role: z.annotated(z.optional(Party), { description: 'Orders in which the caller is this party (an agent has one role: the other gives an empty list)' }),
});

export const AuditActor = z.annotated(z.union([
  z.object({
    agentId: idOf('agent'),
    role: Party,
    keyId: z.annotated(z.optional(idOf('key')), { description: 'The key that acted (absent on entries recorded before keys had ids)' }),
  }),
  z.literal('system'),
]), { id: 'AuditActor' });

export const AuditEntry = z.annotated(z.object({
  entryId: idOf('audit'),
  orderId: idOf('order'),
  sequence: z.annotated(z.int().check(z.gte(1)), { override: { maximum: 2_147_483_647, format: 'int32' } }),
  at: Timestamp,
  actor: AuditActor,
  action: z.enum(['create', 'approve', 'decline', 'confirm', 'ship', 'deliver', 'complete', 'cancel']),
  fromStatus: z.nullable(OrderStatus),
  toStatus: OrderStatus,
  details: z.record(z.string(), z.unknown()),
}), { id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;
