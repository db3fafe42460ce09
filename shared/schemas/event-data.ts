// Event types and the declared schema of each one's `data` (contract: "Webhook subscription": the
// spec's 14 names). Events are checked against these when they are recorded (shared/data/events.ts), so
// what a webhook receiver or a follower of the events feed gets is exactly what is declared here. The
// envelopes and the feed's schemas are in ./events.ts; this module stays small because every function
// that records an event bundles it.
import * as z from './zod.ts';
import { TEXT_PATTERN_MULTI_LINE, TEXT_PATTERN_SINGLE_LINE, Timestamp, bounded, boundedInt, idOf } from './common.ts';
import { FeedFormat, MAX_FEED_ROWS } from './catalog.ts';
import { MAX_AMOUNT, Money } from './money.ts';
import { RFQ_STATUSES } from './rfq-parts.ts';
import { Cancellation, MAX_ROUNDS, NegotiationStatus, OrderItemLine, OrderStatus, Party, Shipping } from './trade-parts.ts';

/**
 * The specification's event type names (both of its lists), the two of approvals (contract §5.2) and
 * webhook.disabled and the four of requests for quotes (§5.7), which subscriptions and the feed's `?type=` accept.
 */
export const EVENT_TYPES = [
  'order.created',
  'order.confirmed',
  'order.shipped',
  'order.delivered',
  'order.completed',
  'order.cancelled',
  'order.approval_required',
  'order.declined',
  'negotiation.started',
  'negotiation.offer',
  'negotiation.counter',
  'negotiation.accepted',
  'negotiation.rejected',
  'feed.processed',
  'feed.completed',
  'feed.failed',
  'webhook.disabled',
  'rfq.created',
  'rfq.quote_received',
  'rfq.awarded',
  'rfq.closed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Alias pairs, [alias, canonical] (contract: negotiation.offer ≡ negotiation.counter, feed.processed ≡
 * feed.completed). An event is recorded under the canonical name, which the events feed shows and `*`
 * and a subscription naming both receive; only a subscription naming the alias alone receives the alias.
 */
export const EVENT_ALIASES = [
  ['negotiation.offer', 'negotiation.counter'],
  ['feed.processed', 'feed.completed'],
] as const satisfies readonly (readonly [EventType, EventType])[];

type AliasName = (typeof EVENT_ALIASES)[number][0];

/** The names events are recorded under: every event type except the first name of an alias pair. */
export const RECORDED_EVENT_TYPES = EVENT_TYPES.filter((type): type is Exclude<EventType, AliasName> => !EVENT_ALIASES.some(([alias]) => alias === type));
export type RecordedEventType = Exclude<EventType, AliasName>;

/** The name an event of this type (or alias) is recorded under. */
export function recordedTypeOf(type: EventType): RecordedEventType {
  const pair = EVENT_ALIASES.find(([alias]) => alias === type);
  return (pair ? pair[1] : type) as RecordedEventType;
}

/** The type a subscription's test event (`POST /v1/webhooks/{id}/test`) is sent as; never recorded. */
export const TEST_EVENT_TYPE = 'webhook.test';

const AgentId = idOf('agent');

/**
 * Present, and true, only on a sample event sent by POST /v1/test-helpers/events (the sandbox's test
 * helpers): its ids name no real records, and it went to the caller alone.
 */
const sampleField = {
  sample: z.annotated(z.optional(z.literal(true)), { description: 'Only on sample events (sandbox test helpers): true; their ids name no real records' }),
};

// Orders

const OrderCreatedData = z.annotated(z.strictObject({
  orderId: idOf('order'),
  buyerId: AgentId,
  sellerId: AgentId,
  totalAmount: Money,
  items: z.annotated(z.array(OrderItemLine), { maxItems: 1 }),
  ...sampleField,
}), { id: 'OrderCreatedData', description: 'order.created: exactly the specification’s fields (and `sample` on a sample event)' });

/** The data of every order change after creation (confirmed … cancelled): one schema, the type names the change. */
const OrderChangeData = z.annotated(z.strictObject({
  orderId: idOf('order'),
  sessionId: idOf('negotiation'),
  buyerId: AgentId,
  sellerId: AgentId,
  status: z.withMeta(OrderStatus, { description: 'The order’s status after the change' }),
  totalAmount: Money,
  items: z.annotated(z.array(OrderItemLine), { maxItems: 1 }),
  shipping: z.annotated(z.optional(Shipping), { description: 'Present once the order has shipped' }),
  cancellation: z.annotated(z.optional(Cancellation), { description: 'Present when the order was cancelled' }),
  ...sampleField,
}), { id: 'OrderChangeData', description: 'The order after the change' });

/**
 * order.approval_required: to the buyer only (the seller does not see the order until it is approved).
 * Names no seller, so that neither the seller's deliveries nor its events feed carry it.
 */
const OrderApprovalRequiredData = z.annotated(z.strictObject({
  orderId: idOf('order'),
  sessionId: idOf('negotiation'),
  buyerId: AgentId,
  keyId: idOf('key', { description: 'The restricted key that placed the order' }),
  totalAmount: Money,
  items: z.annotated(z.array(OrderItemLine), { maxItems: 1 }),
  approvalExpiresAt: Timestamp,
  ...sampleField,
}), { id: 'OrderApprovalRequiredData', description: 'An order waits for the main key: POST /v1/orders/{id}/approve or /decline' });

/** order.declined: to the buyer only; everything the order held is released. */
const OrderDeclinedData = z.annotated(z.strictObject({
  orderId: idOf('order'),
  sessionId: idOf('negotiation'),
  buyerId: AgentId,
  keyId: idOf('key', { description: 'The restricted key that placed the order' }),
  status: z.literal('declined'),
  totalAmount: Money,
  items: z.annotated(z.array(OrderItemLine), { maxItems: 1 }),
  reason: z.annotated(z.nullable(bounded(500, { pattern: TEXT_PATTERN_SINGLE_LINE })), { description: '`approval_expired` when nobody answered in time; else the owner’s reason, if given' }),
  ...sampleField,
}), { id: 'OrderDeclinedData', description: 'The main key declined the order, or its approval expired' });

// Negotiations

const negotiationFields = {
  sessionId: idOf('negotiation'),
  offerId: idOf('offer'),
  productId: idOf('product'),
  buyerId: AgentId,
  sellerId: AgentId,
  status: z.withMeta(NegotiationStatus, { description: 'The session’s status after the move' }),
  currency: bounded(3, { pattern: '^[A-Z]{3}$' }),
  quantity: boundedInt(1, 1_000_000_000, { description: 'Units on the table' }),
  unitPrice: boundedInt(1, MAX_AMOUNT, { description: 'Unit price on the table, minor units of `currency`' }),
  round: boundedInt(1, MAX_ROUNDS),
  turn: z.annotated(z.nullable(Party), { description: 'Who must answer; null once the session is closed' }),
  expiresAt: z.annotated(z.nullable(Timestamp), { description: 'When an open session expires; null once closed' }),
  by: z.annotated(z.nullable(Party), { description: 'Who moved; null when the session expired' }),
  automatic: z.annotated(z.boolean(), { description: 'Made by the offer’s negotiation policy or the marketplace' }),
};

/** The data of every negotiation event: one schema, the type names the move; `reason` only on negotiation.rejected. */
const NegotiationEventData = z.annotated(z.strictObject({
    ...negotiationFields,
    reason: z.annotated(z.optional(z.enum(['rejected', 'expired'])), { description: 'negotiation.rejected only: `rejected`, or `expired` (72 h without a move)' }),
    ...sampleField,
  }).check((context) => {
    // A closed session says how it closed (negotiation.rejected); an open or accepted one has no reason.
    const closed = context.value.status === 'rejected' || context.value.status === 'expired';
    if (closed !== (context.value.reason !== undefined)) {
      context.issues.push({ code: 'custom', path: ['reason'], message: 'Required when the session is rejected or expired, absent otherwise', input: context.value });
    }
  }), { id: 'NegotiationEventData', description: 'The session after the move (no private prices)' });

// Feeds

const feedFields = {
  feedId: idOf('feed'),
  sellerId: AgentId,
  format: FeedFormat,
  filename: z.nullable(bounded(255, { pattern: TEXT_PATTERN_SINGLE_LINE })),
  rowsTotal: boundedInt(0, MAX_FEED_ROWS),
  rowsSucceeded: boundedInt(0, MAX_FEED_ROWS),
  rowsFailed: boundedInt(0, MAX_FEED_ROWS),
  completedAt: Timestamp,
};

/** The data of both feed outcomes: one schema, `status` and the type agree; `failureReason` only on feed.failed. */
const FeedOutcomeData = z.annotated(z.strictObject({
    ...feedFields,
    status: z.annotated(z.enum(['completed', 'failed']), { description: '`completed` (feed.completed, feed.processed; bad rows counted in rowsFailed) or `failed`' }),
    failureReason: z.annotated(z.optional(bounded(2000, { pattern: TEXT_PATTERN_MULTI_LINE })), { description: 'feed.failed only: what to change in the file' }),
    ...sampleField,
  }).check((context) => {
    // The outcome and its reason agree: a failed feed says why, a completed one has nothing to say.
    if ((context.value.status === 'failed') !== (context.value.failureReason !== undefined)) {
      context.issues.push({ code: 'custom', path: ['failureReason'], message: 'Required on feed.failed, absent on feed.completed', input: context.value });
    }
  }), { id: 'FeedOutcomeData', description: 'The feed’s counts and outcome' });

/** Why a subscription is inactive: its deliveries kept failing (the marketplace disabled it), or its owner deactivated it. */
export const DISABLED_REASONS = ['deliveries-failing', 'manual'] as const;

const WebhookDisabledData = z.annotated(
  z.strictObject({
    subscriptionId: idOf('webhook'),
    agentId: AgentId,
    url: bounded(2048, { format: 'uri' }),
    failingSince: Timestamp,
    ...sampleField,
  }),
  // Disabled when the envelope's timestamp says, with disabledReason `deliveries-failing`.
  { id: 'WebhookDisabledData', description: 'The subscription disabled' },
);

// Requests for quotes

const RfqId = idOf('rfq');
const Currency = bounded(3, { pattern: '^[A-Z]{3}$' });

/**
 * rfq.created: to one seller, the request as that seller may see it — never who else was asked, and no
 * buyer id (the event names one party: the seller it is sent to).
 */
const RfqCreatedData = z.annotated(z.strictObject({
  rfqId: RfqId,
  sellerId: z.withMeta(AgentId, { description: 'The seller it is sent to' }),
  title: bounded(200, { pattern: TEXT_PATTERN_SINGLE_LINE }),
  quantity: boundedInt(1, 1_000_000_000),
  currency: Currency,
  maxUnitPrice: z.annotated(z.nullable(boundedInt(1, MAX_AMOUNT)), { description: 'Minor units of `currency`: a quote above it is refused' }),
  closesAt: Timestamp,
  invited: z.annotated(z.boolean(), { description: 'The buyer named this seller; false: its active catalog matches' }),
  ...sampleField,
}), { id: 'RfqCreatedData', description: 'A request for quotes this seller may answer (the rest of it: GET /v1/rfqs/{rfqId}); quote before closesAt' });

/** rfq.quote_received: to the buyer only (sealed: no other seller hears of it). */
const RfqQuoteReceivedData = z.annotated(z.strictObject({
  rfqId: RfqId,
  buyerId: AgentId,
  quote: z.annotated(z.strictObject({
    quoteId: idOf('quote'),
    sellerId: AgentId,
    offerId: idOf('offer'),
    currency: Currency,
    unitPrice: boundedInt(1, MAX_AMOUNT),
    quantity: boundedInt(1, 1_000_000_000),
    leadTimeDays: boundedInt(0, 365),
    validUntil: Timestamp,
    revision: z.annotated(boundedInt(1, 1_000_000), { description: 'Over 1: the seller replaced its quote' }),
}), { description: 'The quote as submitted' }),
  ...sampleField,
}), { id: 'RfqQuoteReceivedData', description: 'A seller quoted (or replaced its quote); compare them with GET /v1/rfqs/{rfqId}' });

/** rfq.awarded: to the winning seller and the buyer: the accepted session to order from. */
const RfqAwardedData = z.annotated(z.strictObject({
  rfqId: RfqId,
  buyerId: AgentId,
  sellerId: z.withMeta(AgentId, { description: 'The winning seller' }),
  quoteId: idOf('quote'),
  sessionId: z.withMeta(idOf('negotiation'), { description: 'The accepted negotiation session at the quote’s terms: the buyer orders from it' }),
  currency: Currency,
  unitPrice: boundedInt(1, MAX_AMOUNT),
  quantity: boundedInt(1, 1_000_000_000),
  ...sampleField,
}), { id: 'RfqAwardedData', description: 'The buyer awarded this quote' });

/**
 * rfq.closed: to one party. To each seller it was sent to, except the winner, when the buyer awards or
 * cancels it (status says which); to the buyer when it closes at closesAt (its quotes can still be awarded).
 */
const RfqClosedData = z.annotated(z.strictObject({
  rfqId: RfqId,
  sellerId: z.annotated(z.optional(AgentId), { description: 'A seller told that it closed without its quote winning' }),
  buyerId: z.annotated(z.optional(AgentId), { description: 'The buyer, told that quoting has ended' }),
  status: z.annotated(z.enum(RFQ_STATUSES.filter((status) => status !== 'open') as ['closed', 'awarded', 'cancelled']), {
    description: '`closed` (closesAt passed: award a quote before it expires), `awarded` (to another seller) or `cancelled`',
}),
  quoteCount: z.annotated(z.optional(boundedInt(0, 1_000_000)), { description: 'To the buyer: how many sellers quoted' }),
  ...sampleField,
}).check((context) => {
  // One party: a seller (told it lost, or that it was cancelled) or the buyer (told quoting ended).
  if ((context.value.sellerId === undefined) === (context.value.buyerId === undefined)) {
    context.issues.push({ code: 'custom', path: ['sellerId'], message: 'Names exactly one party: sellerId or buyerId', input: context.value });
  }
}), { id: 'RfqClosedData', description: 'The request for quotes takes no more quotes' });

const WebhookTestData = z.annotated(
  z.strictObject({ subscriptionId: idOf('webhook'), agentId: AgentId, message: bounded(200, { pattern: TEXT_PATTERN_SINGLE_LINE }) }),
  { id: 'WebhookTestData', description: 'webhook.test: not recorded, not in the events feed' },
);

/** `order.created` → `OrderCreated`: the stem of the schemas' component names. */
export function pascal(type: string): string {
  return type
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The data schema of every recorded event type. */
export const RECORDED_EVENT_DATA = {
  'order.created': OrderCreatedData,
  'order.confirmed': OrderChangeData,
  'order.shipped': OrderChangeData,
  'order.delivered': OrderChangeData,
  'order.completed': OrderChangeData,
  'order.cancelled': OrderChangeData,
  'order.approval_required': OrderApprovalRequiredData,
  'order.declined': OrderDeclinedData,
  'negotiation.started': NegotiationEventData,
  'negotiation.counter': NegotiationEventData,
  'negotiation.accepted': NegotiationEventData,
  'negotiation.rejected': NegotiationEventData,
  'feed.completed': FeedOutcomeData,
  'feed.failed': FeedOutcomeData,
  'webhook.disabled': WebhookDisabledData,
  'rfq.created': RfqCreatedData,
  'rfq.quote_received': RfqQuoteReceivedData,
  'rfq.awarded': RfqAwardedData,
  'rfq.closed': RfqClosedData,
} as const satisfies Record<RecordedEventType, z.ZodMiniObject>;

/** The data schema of every name an event can be delivered under: the 14 event types (aliases share their pair's schema) and the test event. */
export const EVENT_DATA_SCHEMAS = {
  ...RECORDED_EVENT_DATA,
  'negotiation.offer': RECORDED_EVENT_DATA['negotiation.counter'],
  'feed.processed': RECORDED_EVENT_DATA['feed.completed'],
  [TEST_EVENT_TYPE]: WebhookTestData,
} as const satisfies Record<EventType | typeof TEST_EVENT_TYPE, z.ZodMiniObject>;

export type DeliveredEventType = keyof typeof EVENT_DATA_SCHEMAS;

/**
 * What an event's type says about its data where a family shares one data schema: an order change's
 * status is the change (order.shipped → shipped), a feed outcome's status is the outcome, and only
 * negotiation.rejected says how the session closed. Undefined when they agree.
 */
export function typeDisagreement(type: string, data: Readonly<Record<string, unknown>>): string | undefined {
  if (type.startsWith('order.') && type !== 'order.created' && type !== 'order.approval_required') {
    const status = type.slice('order.'.length);
    return data.status === status ? undefined : `data.status must be ${status} on ${type}`;
  }
  if (type.startsWith('feed.')) {
    const status = type === 'feed.failed' ? 'failed' : 'completed';
    return data.status === status ? undefined : `data.status must be ${status} on ${type}`;
  }
  if (type.startsWith('negotiation.')) {
    const closes = type === 'negotiation.rejected';
    return closes === (data.reason !== undefined) ? undefined : closes ? 'data.reason is required on negotiation.rejected' : `data.reason is only on negotiation.rejected, not ${type}`;
  }
  return undefined;
}
/** What a caller passes as an event's data (checked against the type's schema when recorded). */
export type EventDataInput<T extends DeliveredEventType> = z.input<(typeof EVENT_DATA_SCHEMAS)[T]>;
export type EventData<T extends DeliveredEventType> = z.output<(typeof EVENT_DATA_SCHEMAS)[T]>;
