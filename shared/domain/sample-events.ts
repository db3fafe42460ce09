// Sample events (contract §5.3, POST /v1/test-helpers/events): one event of any type, with data valid
// for its type's schema, ids of sample records (fresh ids that name nothing stored) and `sample: true`,
// recorded for the caller alone — its webhook subscriptions receive it and its events feed lists it,
// exactly as they would a real one. The other party it names is a house agent, which never acts on a
// sample (house-agents.ts).
import { recordEvent, type DomainEvent } from '../data/events.ts';
import { transactWrite } from '../data/transactions.ts';
import { fail } from '../failures.ts';
import { newId } from '../ids.ts';
import type { Role } from '../schemas/agents.ts';
import { recordedTypeOf, type EventDataInput, type EventType, type RecordedEventType } from '../schemas/event-data.ts';
import type { Event } from '../schemas/events.ts';
import { toEnvelope } from './events.ts';
import { DEFAULT_HOUSE_BUYER_STRATEGY, HOUSE_BUYERS, HOUSE_SELLER } from './house-agents.ts';

interface SampleParties {
  buyerId: string;
  sellerId: string;
  /** The caller: an event about its own setup (webhook.disabled) names it alone. */
  agentId: string;
  at: Date;
}

const SAMPLE_PRICE = { quantity: 500, unitPrice: 11, currency: 'EUR' } as const;

function orderLine() {
  return { productId: newId('product'), sku: 'SBX-SAMPLE-1', title: 'Sample nitrile gloves, box of 100', quantity: SAMPLE_PRICE.quantity, unitPrice: SAMPLE_PRICE.unitPrice };
}

function orderChange(parties: SampleParties, status: 'confirmed' | 'shipped' | 'delivered' | 'completed' | 'cancelled') {
  const at = parties.at.toISOString();
  const shipped = status === 'shipped' || status === 'delivered' || status === 'completed';
  return {
    orderId: newId('order'),
    sessionId: newId('negotiation'),
    buyerId: parties.buyerId,
    sellerId: parties.sellerId,
    status,
    totalAmount: { amount: SAMPLE_PRICE.quantity * SAMPLE_PRICE.unitPrice, currency: SAMPLE_PRICE.currency },
    items: [orderLine()],
    ...(shipped ? { shipping: { carrier: 'Sandbox Freight', trackingNumber: 'SBXSAMPLE0001', trackingUrl: 'https://tracking.sandbox.agent-marketplace.example/SBXSAMPLE0001', shippedAt: at } } : {}),
    ...(status === 'cancelled' ? { cancellation: { by: 'buyer' as const, reason: 'Sample cancellation', at } } : {}),
    sample: true as const,
  };
}

function negotiationMove(parties: SampleParties, status: 'open' | 'accepted' | 'rejected', round: number, by: 'buyer' | 'seller' | null, reason?: 'rejected') {
  const open = status === 'open';
  return {
    sessionId: newId('negotiation'),
    offerId: newId('offer'),
    productId: newId('product'),
    buyerId: parties.buyerId,
    sellerId: parties.sellerId,
    status,
    currency: SAMPLE_PRICE.currency,
    quantity: SAMPLE_PRICE.quantity,
    unitPrice: SAMPLE_PRICE.unitPrice,
    round,
    turn: open ? (by === 'buyer' ? ('seller' as const) : ('buyer' as const)) : null,
    expiresAt: open ? new Date(parties.at.getTime() + 72 * 60 * 60 * 1000).toISOString() : null,
    by,
    automatic: false,
    ...(reason ? { reason } : {}),
    sample: true as const,
  };
}

function feedOutcome(parties: SampleParties, status: 'completed' | 'failed') {
  return {
    feedId: newId('feed'),
    sellerId: parties.sellerId,
    format: 'csv' as const,
    filename: 'sample-catalog.csv',
    rowsTotal: 120,
    rowsSucceeded: status === 'completed' ? 118 : 0,
    rowsFailed: status === 'completed' ? 2 : 120,
    completedAt: parties.at.toISOString(),
    status,
    ...(status === 'failed' ? { failureReason: 'Sample failure: no row could be read (the header names no sku column)' } : {}),
    sample: true as const,
  };
}

/** Sample data of every recorded type; `parties` are the caller and a house agent (a feed's, the caller alone). */
const SAMPLES: { [T in RecordedEventType]: { roles: readonly Role[]; data: (parties: SampleParties) => EventDataInput<T> } } = {
  'order.created': {
    roles: ['buyer', 'seller'],
    data: (parties) => ({ orderId: newId('order'), buyerId: parties.buyerId, sellerId: parties.sellerId, totalAmount: { amount: SAMPLE_PRICE.quantity * SAMPLE_PRICE.unitPrice, currency: SAMPLE_PRICE.currency }, items: [orderLine()], sample: true }),
  },
  // Approvals concern the buyer's own keys: the seller never hears of them.
  'order.approval_required': {
    roles: ['buyer'],
    data: (parties) => ({
      orderId: newId('order'),
      sessionId: newId('negotiation'),
      buyerId: parties.buyerId,
      keyId: newId('key'),
      totalAmount: { amount: SAMPLE_PRICE.quantity * SAMPLE_PRICE.unitPrice, currency: SAMPLE_PRICE.currency },
      items: [orderLine()],
      approvalExpiresAt: new Date(parties.at.getTime() + 72 * 60 * 60 * 1000).toISOString(),
      sample: true,
    }),
  },
  'order.declined': {
    roles: ['buyer'],
    data: (parties) => ({
      orderId: newId('order'),
      sessionId: newId('negotiation'),
      buyerId: parties.buyerId,
      keyId: newId('key'),
      status: 'declined',
      totalAmount: { amount: SAMPLE_PRICE.quantity * SAMPLE_PRICE.unitPrice, currency: SAMPLE_PRICE.currency },
      items: [orderLine()],
      reason: 'approval_expired',
      sample: true,
    }),
  },
  'order.confirmed': { roles: ['buyer', 'seller'], data: (parties) => orderChange(parties, 'confirmed') },
  'order.shipped': { roles: ['buyer', 'seller'], data: (parties) => orderChange(parties, 'shipped') },
  'order.delivered': { roles: ['buyer', 'seller'], data: (parties) => orderChange(parties, 'delivered') },
  'order.completed': { roles: ['buyer', 'seller'], data: (parties) => orderChange(parties, 'completed') },
  'order.cancelled': { roles: ['buyer', 'seller'], data: (parties) => orderChange(parties, 'cancelled') },
  'negotiation.started': { roles: ['buyer', 'seller'], data: (parties) => negotiationMove(parties, 'open', 1, 'buyer') },
  'negotiation.counter': { roles: ['buyer', 'seller'], data: (parties) => negotiationMove(parties, 'open', 2, 'seller') },
  'negotiation.accepted': { roles: ['buyer', 'seller'], data: (parties) => negotiationMove(parties, 'accepted', 2, 'buyer') },
  'negotiation.rejected': { roles: ['buyer', 'seller'], data: (parties) => negotiationMove(parties, 'rejected', 2, 'seller', 'rejected') },
  'feed.completed': { roles: ['seller'], data: (parties) => feedOutcome(parties, 'completed') },
  'feed.failed': { roles: ['seller'], data: (parties) => feedOutcome(parties, 'failed') },
  'rfq.created': {
    roles: ['seller'],
    data: (parties) => ({
      rfqId: newId('rfq'),
      sellerId: parties.sellerId,
      title: '500 boxes of nitrile gloves, size M',
      quantity: SAMPLE_PRICE.quantity,
      currency: SAMPLE_PRICE.currency,
      maxUnitPrice: 1200,
      closesAt: new Date(parties.at.getTime() + 24 * 60 * 60 * 1000).toISOString(),
      invited: false,
      sample: true,
    }),
  },
  'rfq.quote_received': {
    roles: ['buyer'],
    data: (parties) => ({
      rfqId: newId('rfq'),
      buyerId: parties.buyerId,
      quote: {
        quoteId: newId('quote'),
        sellerId: parties.sellerId,
        offerId: newId('offer'),
        currency: SAMPLE_PRICE.currency,
        unitPrice: 1150,
        quantity: SAMPLE_PRICE.quantity,
        leadTimeDays: 4,
        validUntil: new Date(parties.at.getTime() + 7 * 24 * 60 * 60 * 1000).toISOString(),
        revision: 1,
      },
      sample: true,
    }),
  },
  'rfq.awarded': {
    roles: ['buyer', 'seller'],
    data: (parties) => ({
      rfqId: newId('rfq'),
      buyerId: parties.buyerId,
      sellerId: parties.sellerId,
      quoteId: newId('quote'),
      sessionId: newId('negotiation'),
      currency: SAMPLE_PRICE.currency,
      unitPrice: 1150,
      quantity: SAMPLE_PRICE.quantity,
      sample: true,
    }),
  },
  // One party: the buyer hears quoting ended (closesAt passed), a seller that another quote won.
  'rfq.closed': {
    roles: ['buyer', 'seller'],
    data: (parties) =>
      parties.agentId === parties.buyerId
        ? { rfqId: newId('rfq'), buyerId: parties.buyerId, status: 'closed' as const, quoteCount: 3, sample: true }
        : { rfqId: newId('rfq'), sellerId: parties.sellerId, status: 'awarded' as const, sample: true },
  },
  'webhook.disabled': {
    roles: ['buyer', 'seller'],
    data: (parties) => ({
      subscriptionId: newId('webhook'),
      agentId: parties.agentId,
      url: 'https://hooks.example.com/marketplace',
      failingSince: new Date(parties.at.getTime() - 5 * 24 * 60 * 60 * 1000).toISOString(),
      sample: true,
    }),
  },
};

/** Which roles receive events of a type (a feed's outcome goes to its seller only). */
export function sampleRoles(type: EventType): readonly Role[] {
  return SAMPLES[recordedTypeOf(type)].roles;
}

/**
 * Records a sample event of `type` (a name or an alias) for the caller alone, and returns it as the
 * events feed shows it. A type the caller's role never receives (a buyer's feed.completed) is refused.
 */
export async function triggerSampleEvent(caller: { agentId: string; role: Role }, type: EventType, now: Date): Promise<Event> {
  const recorded = recordedTypeOf(type);
  const sample = SAMPLES[recorded];
  if (!sample.roles.includes(caller.role)) {
    throw fail.invalid(`A ${caller.role} never receives ${type} events (they go to the ${sample.roles.join(' and ')} only)`, [
      { path: 'type', message: `Must be a type a ${caller.role} receives: not ${type}` },
    ]);
  }
  const parties: SampleParties =
    caller.role === 'buyer'
      ? { buyerId: caller.agentId, sellerId: HOUSE_SELLER.agentId, agentId: caller.agentId, at: now }
      : { buyerId: HOUSE_BUYERS[DEFAULT_HOUSE_BUYER_STRATEGY].agentId, sellerId: caller.agentId, agentId: caller.agentId, at: now };
  const { event, operation } = recordEvent({ type: recorded, data: sample.data(parties), agentIds: [caller.agentId] } as Parameters<typeof recordEvent>[0], now);
  await transactWrite([operation]);
  return toEnvelope(event satisfies DomainEvent);
}
