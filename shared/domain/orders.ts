// Orders (contract §3 "Order", "Audit entry"): placed by the buyer from an accepted session, then
// moved through pending → confirmed → shipped → delivered (seller) → completed (buyer); either party
// cancels from pending or confirmed. Every change is one transaction: the order (conditional on the
// status and audit count it was computed from), its audit entry, its event, and, when units move, the
// product's availableQuantity (taken on creation under a condition, given back on cancellation). The
// order's storage (the product key it restocks, the audit sequence and the write conditions) is
// shared/data/orders.ts's.
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { recordEvent } from '../data/events.ts';
import { getNegotiation, NegotiationEntity, replaceNegotiationOperation } from '../data/negotiations.ts';
import { changeOrderOperations, getOrder, listAuditEntries, listOrdersOf, placeOrderOperations, TradeRefused, writeTrade, type AuditRecord, type StoredOrder } from '../data/orders.ts';
import { fail, type FieldProblem } from '../failures.ts';
import { newId } from '../ids.ts';
import type { NegotiationSession, Order, OrderStatus, Party } from '../schemas/trade.ts';
import { decideMove, type TradeCaller } from './negotiations.ts';
import { totalProblem } from './trade-terms.ts';
import { recordOrderCreated } from '../metrics.ts';

function partyOf(order: Order, agentId: string): Party | undefined {
  if (order.buyerId === agentId) return 'buyer';
  if (order.sellerId === agentId) return 'seller';
  return undefined;
}

async function orderOf(caller: TradeCaller, orderId: string): Promise<{ read: StoredOrder; order: Order; party: Party }> {
  const read = await getOrder(orderId);
  const party = read ? partyOf(read.order, caller.agentId) : undefined;
  if (!read || !party) throw fail.notFound(`Order ${orderId} not found`);
  return { read, order: read.order, party };
}

const statusDetails = (status: string): FieldProblem[] => [{ path: 'status', message: `The order is ${status}` }];

/** What an order event says beyond order.created's exact fields: the ids, the status and what changed. */
function orderEventData(order: Order) {
  return {
    orderId: order.orderId,
    sessionId: order.sessionId,
    buyerId: order.buyerId,
    sellerId: order.sellerId,
    status: order.status,
    totalAmount: order.totalAmount,
    items: order.items,
    ...(order.shipping ? { shipping: order.shipping } : {}),
    ...(order.cancellation ? { cancellation: order.cancellation } : {}),
  };
}

export async function createOrder(
  caller: TradeCaller,
  request: { sessionId: string; buyerReference?: string | undefined; shippingAddress?: Order['shippingAddress'] | undefined },
  now: Date,
): Promise<Order> {
  const read = await getNegotiation(request.sessionId);
  if (!read || read.session.buyerId !== caller.agentId) throw fail.notFound(`Negotiation session ${request.sessionId} not found`);
  const { session } = read;
  const orderId = newId('order');
  // Only an accepted session is ordered (negotiation-states.ts); the write's condition guards a race.
  const state = decideMove(session, { action: 'order', orderId }, 'buyer', now);
  // Terms are checked when proposed and accepted; a session accepted before those checks existed gets a 409, never a 500.
  const tooLarge = totalProblem(session.quantity, session.unitPrice, session.currency);
  if (tooLarge) throw fail.conflict(`The session's terms cannot be ordered: ${tooLarge}`, [{ path: 'quantity', message: tooLarge }]);

  const at = now.toISOString();
  const items = [{ productId: session.productId, quantity: session.quantity, unitPrice: session.unitPrice }];
  const totalAmount = { amount: session.quantity * session.unitPrice, currency: session.currency };
  const order: Order = {
    orderId,
    sessionId: session.sessionId,
    offerId: session.offerId,
    buyerId: session.buyerId,
    sellerId: session.sellerId,
    items,
    totalAmount,
    status: 'pending',
    shipping: null,
    cancellation: null,
    buyerReference: request.buyerReference ?? null,
    shippingAddress: request.shippingAddress ?? null,
    createdAt: at,
    updatedAt: at,
  };
  const ordered: NegotiationSession = { ...session, ...state, updatedAt: at };
  const audit: AuditRecord = {
    entryId: newId('audit'),
    at,
    actor: { agentId: caller.agentId, role: 'buyer' },
    action: 'create',
    fromStatus: null,
    toStatus: 'pending',
    details: { sessionId: session.sessionId, quantity: session.quantity, unitPrice: session.unitPrice, totalAmount },
  };
  // order.created carries exactly the spec's fields.
  const { operation: event } = recordEvent({ type: 'order.created', data: { orderId, buyerId: order.buyerId, sellerId: order.sellerId, totalAmount, items }, agentIds: [order.buyerId, order.sellerId] }, now);
  try {
    await writeTrade([
      ...placeOrderOperations(order, read, audit, now),
      replaceNegotiationOperation(read, ordered, NegotiationEntity.where.eq('status', 'accepted')),
      event,
    ]);
  } catch (error) {
    if (!(error instanceof TradeRefused)) throw error;
    if (error.refusal.has('session')) {
      const current = error.session;
      if (current) decideMove(current, { action: 'order', orderId }, 'buyer', now);
      throw fail.collision('The session changed while the order was placed: read it and try again');
    }
    if (error.refusal.has('stock')) {
      const left = error.product?.availableQuantity ?? 0;
      throw fail.conflict(`Not enough stock: ${left} units are left and the session's quantity is ${session.quantity}; nothing was ordered`, [
        { path: 'quantity', message: `${left} units are available; the session is for ${session.quantity}` },
      ]);
    }
    throw error;
  }
  recordOrderCreated(totalAmount);
  return order;
}

export type OrderAction = 'confirm' | 'ship' | 'deliver' | 'complete' | 'cancel';

/** The contract's transitions: who may make each, from which statuses, to which. */
const TRANSITIONS: Record<OrderAction, { by: Party | 'either'; from: readonly OrderStatus[]; to: OrderStatus; event: 'order.confirmed' | 'order.shipped' | 'order.delivered' | 'order.completed' | 'order.cancelled' }> = {
  confirm: { by: 'seller', from: ['pending'], to: 'confirmed', event: 'order.confirmed' },
  ship: { by: 'seller', from: ['confirmed'], to: 'shipped', event: 'order.shipped' },
  deliver: { by: 'seller', from: ['shipped'], to: 'delivered', event: 'order.delivered' },
  complete: { by: 'buyer', from: ['delivered'], to: 'completed', event: 'order.completed' },
  cancel: { by: 'either', from: ['pending', 'confirmed'], to: 'cancelled', event: 'order.cancelled' },
};

/**
 * The pure rule: what `action` by `party` does to an order in `status` — the next status, or why it is
 * refused (`forbidden`: not this party's move; `conflict`: not from this status).
 */
export function orderMove(status: OrderStatus, action: OrderAction, party: Party): { to: OrderStatus } | { refused: 'forbidden' | 'conflict' } {
  const rule = TRANSITIONS[action];
  if (rule.by !== 'either' && rule.by !== party) return { refused: 'forbidden' };
  if (!rule.from.includes(status)) return { refused: 'conflict' };
  return { to: rule.to };
}

export type TransitionInput =
  | { action: 'confirm' | 'deliver' | 'complete' }
  | { action: 'ship'; carrier: string; trackingNumber: string; trackingUrl?: string | undefined }
  | { action: 'cancel'; reason?: string | undefined };

/**
 * Conditional writes of one transition before it gives up: a write that lost to another move re-reads the
 * order and decides again on the state it finds (a cancel that lost to a confirm still cancels).
 */
const TRANSITION_ATTEMPTS = 5;

export async function transitionOrder(caller: TradeCaller, orderId: string, input: TransitionInput, now: Date): Promise<Order> {
  const found = await orderOf(caller, orderId);
  const { party } = found;
  let { read, order } = found;
  const rule = TRANSITIONS[input.action];
  for (let attempt = 1; ; attempt++) {
    const move = orderMove(order.status, input.action, party);
    if ('refused' in move && move.refused === 'forbidden') throw fail.forbidden(`Only the order's ${rule.by} can ${input.action} it`);
    if ('refused' in move) {
      throw fail.conflict(`An order that is ${order.status} cannot be ${rule.to === 'cancelled' ? 'cancelled' : `moved to ${rule.to}`} (only from ${rule.from.join(' or ')})`, statusDetails(order.status));
    }
    // Decided again after another move: never before that move's time, so the audit trail stays in order.
    const at = new Date(Math.max(now.getTime(), Date.parse(order.updatedAt)));
    const next = nextOrder(order, input, party, at);
    const audit: AuditRecord = {
      entryId: newId('audit'),
      at: at.toISOString(),
      actor: { agentId: caller.agentId, role: party },
      action: input.action,
      fromStatus: order.status,
      toStatus: rule.to,
      details: next.details,
    };
    const { operation: event } = recordEvent({ type: rule.event, data: orderEventData(next.order), agentIds: [order.buyerId, order.sellerId] }, at);
    // A cancellation gives the order's units back to the product, in the same transaction.
    const operations = [...changeOrderOperations(read, next.order, audit, { restock: input.action === 'cancel' }, at), event];
    try {
      await writeTrade(operations);
      return next.order;
    } catch (error) {
      if (!(error instanceof TradeRefused && (error.refusal.has('order') || error.refusal.has('audit')))) throw error;
      const current = await getOrder(orderId);
      if (!current) throw fail.notFound(`Order ${orderId} not found`);
      if (attempt >= TRANSITION_ATTEMPTS) {
        throw fail.collision(`The order kept changing while this ${input.action} was made and is now ${current.order.status}: read it and decide again`);
      }
      read = current;
      order = current.order;
    }
  }
}

/** The order after the move, and what its audit entry records about it. */
function nextOrder(order: Order, input: TransitionInput, party: Party, at: Date): { order: Order; details: Record<string, unknown> } {
  const timestamp = at.toISOString();
  const next: Order = { ...order, status: TRANSITIONS[input.action].to, updatedAt: timestamp };
  if (input.action === 'ship') {
    next.shipping = { carrier: input.carrier, trackingNumber: input.trackingNumber, trackingUrl: input.trackingUrl ?? null, shippedAt: timestamp };
    return { order: next, details: { carrier: input.carrier, trackingNumber: input.trackingNumber, trackingUrl: input.trackingUrl ?? null } };
  }
  if (input.action === 'cancel') {
    next.cancellation = { by: party, reason: input.reason ?? null, at: timestamp };
    return { order: next, details: { reason: input.reason ?? null, restoredQuantity: order.items[0]?.quantity ?? 0 } };
  }
  return { order: next, details: {} };
}

export async function getOrderForCaller(caller: TradeCaller, orderId: string): Promise<Order> {
  return (await orderOf(caller, orderId)).order;
}

export async function listOrdersForCaller(caller: TradeCaller, query: { limit: number; cursor?: string | undefined; status?: OrderStatus | undefined; role?: Party | undefined }) {
  const scope = `orders:${caller.agentId}:${query.role ?? ''}:${query.status ?? ''}`;
  const startKey = decodeCursor(scope, query.cursor);
  // An agent has one role: asking for its orders in the other role finds none.
  if (query.role !== undefined && query.role !== caller.role) return { items: [], nextCursor: null };
  const page = await listOrdersOf(caller.role, caller.agentId, { limit: query.limit, startKey, ...(query.status ? { status: query.status } : {}) });
  return { items: page.items, nextCursor: encodeCursor(scope, page.lastKey) };
}

export async function listAuditForCaller(caller: TradeCaller, orderId: string, query: { limit: number; cursor?: string | undefined }) {
  await orderOf(caller, orderId);
  const scope = `audit:${caller.agentId}:${orderId}`;
  const page = await listAuditEntries(orderId, { limit: query.limit, startKey: decodeCursor(scope, query.cursor) });
  return { items: page.items, nextCursor: encodeCursor(scope, page.lastKey) };
}
