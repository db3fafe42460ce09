// Event types and the declared schema of each one's `data` (contract: "Webhook subscription": the
// spec's 14 names). Events are checked against these when they are recorded (shared/data/events.ts), so
// what a webhook receiver or a follower of the events feed gets is exactly what is declared here. The
// envelopes and the feed's schemas are in ./events.ts; this module stays small because every function
// that records an event bundles it.
import * as z from 'zod';
import { Timestamp } from './common.ts';
import { FeedFormat } from './catalog.ts';
import { Money } from './money.ts';
import { Cancellation, NegotiationStatus, OrderItemLine, OrderStatus, Party, Shipping } from './trade-parts.ts';

/** The specification's event type names (both of its lists), which subscriptions and the feed's `?type=` accept. */
export const EVENT_TYPES = [
  'order.created',
  'order.confirmed',
  'order.shipped',
  'order.delivered',
  'order.completed',
  'order.cancelled',
  'negotiation.started',
  'negotiation.offer',
  'negotiation.counter',
  'negotiation.accepted',
  'negotiation.rejected',
  'feed.processed',
  'feed.completed',
  'feed.failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Alias pairs (contract: negotiation.offer ≡ negotiation.counter, feed.processed ≡ feed.completed). An
 * event is recorded under the second name; a subscription naming both, or `*`, receives it under the first.
 */
export const EVENT_ALIASES = [
  ['negotiation.offer', 'negotiation.counter'],
  ['feed.processed', 'feed.completed'],
] as const satisfies readonly (readonly [EventType, EventType])[];

type AliasName = (typeof EVENT_ALIASES)[number][0];

/** The names events are recorded under: every event type except the first name of an alias pair. */
export const RECORDED_EVENT_TYPES = /* @__PURE__ */ (() => EVENT_TYPES.filter((type): type is Exclude<EventType, AliasName> => !EVENT_ALIASES.some(([alias]) => alias === type)))();
export type RecordedEventType = Exclude<EventType, AliasName>;

/** The name an event of this type (or alias) is recorded under. */
export function recordedTypeOf(type: EventType): RecordedEventType {
  const pair = EVENT_ALIASES.find(([alias]) => alias === type);
  return (pair ? pair[1] : type) as RecordedEventType;
}

/** The type a subscription's test event (`POST /v1/webhooks/{id}/test`) is sent as; never recorded. */
export const TEST_EVENT_TYPE = 'webhook.test';

const AgentId = /* @__PURE__ */ (() => z.string().meta({ example: 'agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR' }))();

// Orders

const OrderCreatedData = /* @__PURE__ */ (() => z
  .strictObject({
    orderId: z.string(),
    buyerId: AgentId,
    sellerId: AgentId,
    totalAmount: Money,
    items: z.array(OrderItemLine),
  })
  .meta({ id: 'OrderCreatedData', description: 'order.created: exactly the specification’s fields' }))();

const orderChange = (type: string, status: string, extra: string) =>
  z
    .strictObject({
      orderId: z.string(),
      sessionId: z.string(),
      buyerId: AgentId,
      sellerId: AgentId,
      status: OrderStatus.meta({ description: `The order’s status after the change (${status})` }),
      totalAmount: Money,
      items: z.array(OrderItemLine),
      shipping: Shipping.optional().meta({ description: 'Present once the order has shipped' }),
      cancellation: Cancellation.optional().meta({ description: 'Present when the order was cancelled' }),
    })
    .meta({ id: `${pascal(type)}Data`, description: `${type}: the order’s ids and parties, its status (${status}), items and total${extra}` });

// Negotiations

const negotiationFields = {
  sessionId: z.string(),
  offerId: z.string(),
  productId: z.string(),
  buyerId: AgentId,
  sellerId: AgentId,
  status: NegotiationStatus.meta({ description: 'The session’s status after the move' }),
  currency: z.string().meta({ example: 'USD' }),
  quantity: z.int().meta({ description: 'Units on the table' }),
  unitPrice: z.int().meta({ description: 'Unit price on the table, minor units of `currency`' }),
  round: z.int(),
  turn: Party.nullable().meta({ description: 'Who must answer; null once the session is closed' }),
  expiresAt: Timestamp.nullable().meta({ description: 'When an open session expires; null once accepted or rejected' }),
  by: Party.nullable().meta({ description: 'The party that moved; null when the marketplace closed the session (expiry)' }),
  automatic: z.boolean().meta({ description: 'Made on the seller’s behalf by the offer’s negotiation policy, or by the marketplace' }),
};

const negotiationMove = (type: string, what: string) =>
  z.strictObject(negotiationFields).meta({ id: `${pascal(type)}Data`, description: `${type}: ${what}; the session’s ids and parties, the terms on the table and who moved. Never the seller’s private prices.` });

const NegotiationRejectedData = /* @__PURE__ */ (() => z
  .strictObject({
    ...negotiationFields,
    reason: z.enum(['rejected', 'expired']).meta({ description: '`rejected` by a party, or `expired` (72 h without a move)' }),
  })
  .meta({ id: 'NegotiationRejectedData', description: 'negotiation.rejected: a party rejected the session, or it expired (`reason`). Never the seller’s private prices.' }))();

// Feeds

const feedFields = {
  feedId: z.string(),
  sellerId: AgentId,
  format: FeedFormat,
  filename: z.string().nullable(),
  rowsTotal: z.int(),
  rowsSucceeded: z.int(),
  rowsFailed: z.int(),
  completedAt: Timestamp,
};

const FeedCompletedData = /* @__PURE__ */ (() => z
  .strictObject({ ...feedFields, status: z.enum(['completed']) })
  .meta({ id: 'FeedCompletedData', description: 'feed.completed (alias feed.processed): the feed was processed; bad rows are counted in rowsFailed' }))();

const FeedFailedData = /* @__PURE__ */ (() => z
  .strictObject({ ...feedFields, status: z.enum(['failed']), failureReason: z.string().meta({ description: 'What to change in the file' }) })
  .meta({ id: 'FeedFailedData', description: 'feed.failed: the file could not be read, or every row was invalid' }))();

const WebhookTestData = /* @__PURE__ */ (() => z
  .strictObject({ subscriptionId: z.string(), agentId: AgentId, message: z.string() })
  .meta({ id: 'WebhookTestData', description: 'webhook.test: sent by POST /v1/webhooks/{id}/test to that subscription only; not recorded, not in the events feed' }))();

/** `order.created` → `OrderCreated`: the stem of the schemas' component names. */
export function pascal(type: string): string {
  return type
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

const NegotiationCounterData = /* @__PURE__ */ (() => negotiationMove('negotiation.counter', 'a party countered (alias negotiation.offer)'))();

/** The data schema of every recorded event type. */
export const RECORDED_EVENT_DATA = {
  'order.created': OrderCreatedData,
  'order.confirmed': orderChange('order.confirmed', 'confirmed', ''),
  'order.shipped': orderChange('order.shipped', 'shipped', ', and shipping (carrier, tracking)'),
  'order.delivered': orderChange('order.delivered', 'delivered', ', and shipping'),
  'order.completed': orderChange('order.completed', 'completed', ', and shipping'),
  'order.cancelled': orderChange('order.cancelled', 'cancelled', ', and cancellation (by, reason, at)'),
  'negotiation.started': negotiationMove('negotiation.started', 'a buyer opened a session with a proposal'),
  'negotiation.counter': NegotiationCounterData,
  'negotiation.accepted': negotiationMove('negotiation.accepted', 'the party whose turn it was accepted the terms on the table'),
  'negotiation.rejected': NegotiationRejectedData,
  'feed.completed': FeedCompletedData,
  'feed.failed': FeedFailedData,
} as const satisfies Record<RecordedEventType, z.ZodObject>;

/** The data schema of every name an event can be delivered under: the 14 event types (aliases share their pair's schema) and the test event. */
export const EVENT_DATA_SCHEMAS = {
  ...RECORDED_EVENT_DATA,
  'negotiation.offer': RECORDED_EVENT_DATA['negotiation.counter'],
  'feed.processed': RECORDED_EVENT_DATA['feed.completed'],
  [TEST_EVENT_TYPE]: WebhookTestData,
} as const satisfies Record<EventType | typeof TEST_EVENT_TYPE, z.ZodObject>;

export type DeliveredEventType = keyof typeof EVENT_DATA_SCHEMAS;
/** What a caller passes as an event's data (checked against the type's schema when recorded). */
export type EventDataInput<T extends DeliveredEventType> = z.input<(typeof EVENT_DATA_SCHEMAS)[T]>;
export type EventData<T extends DeliveredEventType> = z.output<(typeof EVENT_DATA_SCHEMAS)[T]>;
