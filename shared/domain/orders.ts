// Orders (contract §3 "Order", "Audit entry"; §5.2 limits and approvals): placed by the buyer from an
// accepted session, then moved through pending → confirmed → shipped → delivered (seller) → completed
// (buyer); either party cancels from pending or confirmed. An order placed with a restricted key over
// its `approvalAbove` starts `awaiting_approval` instead: the buyer's main key approves it (→ pending,
// and only then does the seller see it) or declines it (→ declined); unanswered, the approval expires
// (→ declined, `approval_expired`, by the scheduled worker). Who may move an order from which status is
// the pure rule orderMove() of order-states.ts.
//
// Every change is one transaction: the order (conditional on the status and audit count it was
// computed from), its audit entry, its event, and, when units move, the product's availableQuantity
// (taken on creation under a condition, given back on cancellation and decline) and the key's spend
// counters (charged on creation within their limits, given back likewise). The order's storage (the
// product key it restocks, the audit sequence, its spend charge and the write conditions) is
// shared/data/orders.ts's.
import { backoff } from '../backoff.ts';
import { config } from '../config.ts';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { recordEvent, type NewEvent } from '../data/events.ts';
import { getNegotiation, getTradedProduct, NegotiationEntity, replaceNegotiationOperation, type StoredNegotiation } from '../data/negotiations.ts';
import {
  changeOrderOperations,
  getOrder,
  HIDDEN_FROM_SELLER,
  listAuditEntries,
  listExpiredApprovals,
  listOrdersOf,
  placeOrderOperations,
  TradeRefused,
  writeTrade,
  type AuditRecord,
  type OrderGuard,
  type StoredOrder,
} from '../data/orders.ts';
import { periodsOf, spentIn } from '../data/spend-counters.ts';
import type { TransactOperation } from '../data/transactions.ts';
import { fail, Failure, type FieldProblem } from '../failures.ts';
import { newId } from '../ids.ts';
import { limitsCurrency, type KeyLimits } from '../schemas/keys.ts';
import type { NegotiationSession, Order, OrderPreview, OrderStatus, Party } from '../schemas/trade.ts';
import { decideMove, type TradeCaller } from './negotiations.ts';
import { ORDER_TRANSITIONS, orderMove, releases, type OrderAction } from './order-states.ts';
import { countsSpend, limitProblems, limitsPreview, refusalMessage, requiresApproval, shipsFromProblem, spendProblem } from './spending-limits.ts';
import { totalProblem } from './trade-terms.ts';
import { recordOrderCreated } from '../metrics.ts';

/** The caller of create-order: its key's kind, name and limits decide what the order may be. */
export interface OrderingCaller extends TradeCaller {
  keyId: string;
  keyKind: 'main' | 'restricted';
  keyName: string | null;
  limits: KeyLimits | null;
}

function partyOf(order: Order, agentId: string): Party | undefined {
  if (order.buyerId === agentId) return 'buyer';
  if (order.sellerId === agentId) return 'seller';
  return undefined;
}

/** The order as `party` sees it: the seller never sees the buyer's keys or its approval. */
function viewFor(order: Order, party: Party): Order {
  if (party === 'buyer' || order.approval === undefined) return order;
  const { approval: _approval, ...seen } = order;
  return seen;
}

async function orderOf(caller: TradeCaller, orderId: string): Promise<{ read: StoredOrder; order: Order; party: Party }> {
  const read = await getOrder(orderId);
  const party = read ? partyOf(read.order, caller.agentId) : undefined;
  // An order awaiting approval, or declined, does not exist for its seller.
  if (!read || !party || (party === 'seller' && HIDDEN_FROM_SELLER.includes(read.order.status))) throw fail.notFound(`Order ${orderId} not found`);
  return { read, order: read.order, party };
}

const statusDetails = (status: string): FieldProblem[] => [{ path: 'status', message: `The order is ${status}` }];

/** Who acted, for the audit trail: the agent, its part in the order and the key it used. */
function actorOf(caller: TradeCaller, party: Party): AuditRecord['actor'] {
  return { agentId: caller.agentId, role: party, ...(caller.keyId ? { keyId: caller.keyId } : {}) };
}

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

/** order.created: exactly the spec's fields, to both parties (when the order is placed, or approved). */
function orderCreatedEvent(order: Order): NewEvent<'order.created'> {
  return { type: 'order.created', data: { orderId: order.orderId, buyerId: order.buyerId, sellerId: order.sellerId, totalAmount: order.totalAmount, items: order.items }, agentIds: [order.buyerId, order.sellerId] };
}

type CreateRequest = { sessionId: string; buyerReference?: string | undefined; shippingAddress?: Order['shippingAddress'] | undefined; dryRun?: boolean | undefined };

/** Collided transactions changed nothing: racing orders against one budget or product are sent again, up to this many times. */
const ORDER_WRITE_ATTEMPTS = 8;

async function writeOrder(operations: readonly TransactOperation[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTrade(operations);
    } catch (error) {
      if (!(error instanceof Failure && error.kind === 'conflict' && error.transient) || attempt >= ORDER_WRITE_ATTEMPTS) throw error;
      await backoff(attempt);
    }
  }
}

const stockConflict = (left: number, quantity: number) =>
  fail.conflict(`Not enough stock: ${left} units are left and the session's quantity is ${quantity}; nothing was ordered`, [
    { path: 'quantity', message: `${left} units are available; the session is for ${quantity}` },
  ]);

export async function createOrder(caller: OrderingCaller, request: CreateRequest, now: Date): Promise<Order | OrderPreview> {
  const read = await getNegotiation(request.sessionId);
  if (!read || read.session.buyerId !== caller.agentId) throw fail.notFound(`Negotiation session ${request.sessionId} not found`);
  const { session } = read;
  const orderId = newId('order');
  // Only an accepted session is ordered (negotiation-states.ts); the write's condition guards a race.
  const state = decideMove(session, { action: 'order', orderId }, 'buyer', now);
  // Terms are checked when proposed and accepted; a session accepted before those checks existed gets a 409, never a 500.
  const tooLarge = totalProblem(session.quantity, session.unitPrice, session.currency);
  if (tooLarge) throw fail.conflict(`The session's terms cannot be ordered: ${tooLarge}`, [{ path: 'quantity', message: tooLarge }]);

  const total = session.quantity * session.unitPrice;
  const limits = caller.keyKind === 'restricted' ? caller.limits : null;
  // Limits that need no counter are refused before anything is read or written.
  const problems = limitProblems(limits, { total, currency: session.currency, sellerId: session.sellerId });
  if (problems.length > 0) throw fail.spendingLimit(refusalMessage(problems), problems);

  const at = now.toISOString();
  const waits = requiresApproval(limits, total);
  const items = [{ productId: session.productId, sku: session.sku, title: session.title, quantity: session.quantity, unitPrice: session.unitPrice }];
  const totalAmount = { amount: total, currency: session.currency };
  const order: Order = {
    orderId,
    sessionId: session.sessionId,
    offerId: session.offerId,
    buyerId: session.buyerId,
    sellerId: session.sellerId,
    items,
    totalAmount,
    status: waits ? 'awaiting_approval' : 'pending',
    shipping: null,
    cancellation: null,
    buyerReference: request.buyerReference ?? null,
    shippingAddress: request.shippingAddress ?? null,
    ...(waits && limits?.approvalAbove
      ? {
          approval: {
            keyId: caller.keyId,
            keyName: caller.keyName ?? caller.keyId,
            approvalAbove: limits.approvalAbove,
            expiresAt: new Date(now.getTime() + config().ORDER_APPROVAL_SECONDS * 1000).toISOString(),
            decision: null,
            decidedAt: null,
            decidedByKeyId: null,
            reason: null,
          },
        }
      : {}),
    createdAt: at,
    updatedAt: at,
  };

  if (request.dryRun) return previewOrder(read, order, limits, caller.keyId, now);

  const ordered: NegotiationSession = { ...session, ...state, updatedAt: at };
  const audit: AuditRecord = {
    entryId: newId('audit'),
    at,
    actor: actorOf(caller, 'buyer'),
    action: 'create',
    fromStatus: null,
    toStatus: order.status,
    details: { sessionId: session.sessionId, quantity: session.quantity, unitPrice: session.unitPrice, totalAmount },
  };
  // order.created carries exactly the spec's fields; an order awaiting approval tells its buyer only.
  const { operation: event } = order.approval
    ? recordEvent({ type: 'order.approval_required', data: { orderId, sessionId: session.sessionId, buyerId: order.buyerId, keyId: caller.keyId, totalAmount, items, approvalExpiresAt: order.approval.expiresAt }, agentIds: [order.buyerId] }, now)
    : recordEvent(orderCreatedEvent(order), now);
  const guard: OrderGuard = {
    ...(limits && countsSpend(limits)
      ? { charge: { spend: { keyId: caller.keyId, currency: session.currency, amount: total, ...periodsOf(now) }, dayLimit: limits.spendPerDay?.amount, monthLimit: limits.spendPerMonth?.amount } }
      : {}),
    ...(limits?.allowedShipsFrom ? { shipsFrom: limits.allowedShipsFrom } : {}),
  };
  try {
    await writeOrder([
      ...placeOrderOperations(order, read, audit, now, guard),
      replaceNegotiationOperation(read, ordered, NegotiationEntity.where.eq('status', 'accepted')),
      event,
    ]);
  } catch (error) {
    if (!(error instanceof TradeRefused)) throw error;
    // What the key's limits refused comes first: nothing was written either way.
    const refused: FieldProblem[] = [];
    for (const [period, limit] of [['day', 'spendPerDay'], ['month', 'spendPerMonth']] as const) {
      const counter = error.spendRefusal(period);
      const budget = limits?.[limit];
      const problem = counter && budget && spendProblem(limit, budget, counter.spent, total);
      if (problem) refused.push(problem);
    }
    const product = error.refusal.has('stock') ? error.product : undefined;
    const shipsFrom = product ? shipsFromProblem(limits, product.shipsFrom) : undefined;
    if (shipsFrom) refused.unshift(shipsFrom);
    if (refused.length > 0) throw fail.spendingLimit(refusalMessage(refused), refused);
    if (error.refusal.has('session')) {
      const current = error.session;
      if (current) decideMove(current, { action: 'order', orderId }, 'buyer', now);
      throw fail.collision('The session changed while the order was placed: read it and try again');
    }
    if (error.refusal.has('stock')) throw stockConflict(product?.availableQuantity ?? 0, session.quantity);
    throw error;
  }
  recordOrderCreated(totalAmount);
  return order;
}

/**
 * The dry run: the order as it would be created and what is left of the key's limits, or the refusal
 * it would get — from reads only (the product, the key's counters); nothing is written.
 */
async function previewOrder(read: StoredNegotiation, order: Order, limits: KeyLimits | null, keyId: string, now: Date): Promise<OrderPreview> {
  const total = order.totalAmount.amount;
  const currency = limitsCurrency(limits);
  const [product, spent] = await Promise.all([
    getTradedProduct(read),
    currency !== undefined ? spentIn(keyId, currency, now) : Promise.resolve({ day: 0, month: 0 }),
  ]);
  const problems: FieldProblem[] = [];
  const shipsFrom = shipsFromProblem(limits, product?.shipsFrom ?? null);
  if (shipsFrom) problems.push(shipsFrom);
  for (const [period, limit] of [['day', 'spendPerDay'], ['month', 'spendPerMonth']] as const) {
    const budget = limits?.[limit];
    const problem = budget && spendProblem(limit, budget, spent[period], total);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) throw fail.spendingLimit(refusalMessage(problems), problems);
  const quantity = order.items[0]?.quantity ?? 0;
  if (!product || product.availableQuantity < quantity) throw stockConflict(product?.availableQuantity ?? 0, quantity);
  return { ...order, dryRun: true, limits: limitsPreview(limits, spent, total) };
}

export type TransitionInput =
  | { action: 'approve' | 'confirm' | 'deliver' | 'complete' }
  | { action: 'ship'; carrier: string; trackingNumber: string; trackingUrl?: string | undefined }
  | { action: 'cancel' | 'decline'; reason?: string | undefined };

/** The order after `action`, and what its audit entry says of it. */
function applyTransition(order: Order, input: TransitionInput | { action: 'expire-approval' }, to: OrderStatus, by: { party: Party; keyId?: string | undefined } | 'system', at: string): { next: Order; details: Record<string, unknown> } {
  const next: Order = { ...order, status: to, updatedAt: at };
  const line = order.items[0];
  switch (input.action) {
    case 'ship':
      next.shipping = { carrier: input.carrier, trackingNumber: input.trackingNumber, trackingUrl: input.trackingUrl ?? null, shippedAt: at };
      return { next, details: { carrier: input.carrier, trackingNumber: input.trackingNumber, trackingUrl: input.trackingUrl ?? null } };
    case 'cancel':
      // Only a party cancels (orderMove): the marketplace only expires approvals.
      if (by === 'system') throw new Error('The marketplace does not cancel orders');
      next.cancellation = { by: by.party, reason: input.reason ?? null, at };
      return { next, details: { reason: input.reason ?? null, restoredQuantity: line?.quantity ?? 0 } };
    case 'approve':
    case 'decline':
    case 'expire-approval': {
      const approval = order.approval;
      if (!approval) throw new Error(`Order ${order.orderId} awaits approval without an approval record`);
      const reason = input.action === 'decline' ? (input.reason ?? null) : input.action === 'expire-approval' ? 'approval_expired' : null;
      next.approval = {
        ...approval,
        decision: input.action === 'approve' ? 'approved' : 'declined',
        decidedAt: at,
        decidedByKeyId: by === 'system' ? null : (by.keyId ?? null),
        reason,
      };
      return { next, details: input.action === 'approve' ? {} : { reason, restoredQuantity: line?.quantity ?? 0 } };
    }
    default:
      return { next, details: {} };
  }
}

/** The event of a transition: order.created on approval, order.declined (buyer only) on a decline, else the change. */
function transitionEvent(next: Order): NewEvent {
  if (next.status === 'pending') return orderCreatedEvent(next);
  if (next.status === 'declined') {
    // Only an order awaiting approval is declined (orderMove), and it has its approval record.
    if (!next.approval) throw new Error(`Order ${next.orderId} was declined without an approval record`);
    return {
      type: 'order.declined',
      data: { orderId: next.orderId, sessionId: next.sessionId, buyerId: next.buyerId, keyId: next.approval.keyId, status: 'declined', totalAmount: next.totalAmount, items: next.items, reason: next.approval.reason },
      agentIds: [next.buyerId],
    };
  }
  const type = `order.${next.status}` as 'order.confirmed' | 'order.shipped' | 'order.delivered' | 'order.completed' | 'order.cancelled';
  return { type, data: orderEventData(next), agentIds: [next.buyerId, next.sellerId] };
}

/**
 * Writes a transition computed from `read`: false, with nothing written, when the order changed in
 * between (the caller reads it again and decides on what it finds).
 */
async function commitTransition(read: StoredOrder, next: Order, audit: AuditRecord, now: Date): Promise<boolean> {
  const { operation: event } = recordEvent(transitionEvent(next), now);
  // Cancelling or declining gives the order's units back to the product and its charge to the key's counters.
  const operations = [...changeOrderOperations(read, next, audit, { restock: releases(next.status) }, now), event];
  try {
    await writeOrder(operations);
    return true;
  } catch (error) {
    if (error instanceof TradeRefused && (error.refusal.has('order') || error.refusal.has('audit'))) return false;
    throw error;
  }
}

const ACTION_WORDS: Record<Exclude<OrderAction, 'expire-approval'>, string> = {
  approve: 'approved',
  decline: 'declined',
  confirm: 'confirmed',
  ship: 'shipped',
  deliver: 'delivered',
  complete: 'completed',
  cancel: 'cancelled',
};

/**
 * Conditional writes of one transition before it gives up: a write that lost to another move re-reads the
 * order and decides again on the state it finds (a cancel that lost to a confirm still cancels).
 */
const TRANSITION_ATTEMPTS = 5;

export async function transitionOrder(caller: TradeCaller, orderId: string, input: TransitionInput, now: Date): Promise<Order> {
  const found = await orderOf(caller, orderId);
  const { party } = found;
  let { read, order } = found;
  const rule = ORDER_TRANSITIONS[input.action];
  for (let attempt = 1; ; attempt++) {
    const move = orderMove(order.status, input.action, party);
    if ('refused' in move && move.refused === 'forbidden') throw fail.forbidden(`Only the order's ${rule.by} can ${input.action} it`);
    if ('refused' in move) {
      throw fail.conflict(`An order that is ${order.status} cannot be ${ACTION_WORDS[input.action]} (only from ${rule.from.join(' or ')})`, statusDetails(order.status));
    }
    // An approval whose window has closed is the expiry's to record (declined, approval_expired).
    if (input.action === 'approve' && order.approval && order.approval.expiresAt <= now.toISOString()) {
      throw fail.conflict(`The approval window closed at ${order.approval.expiresAt}: the order is being declined (approval_expired) and cannot be approved. Place a new order`, [
        ...statusDetails(order.status),
        { path: 'approval.expiresAt', message: `Closed at ${order.approval.expiresAt}` },
      ]);
    }
    // Decided again after another move: never before that move's time, so the audit trail stays in order.
    const when = new Date(Math.max(now.getTime(), Date.parse(order.updatedAt)));
    const at = when.toISOString();
    const { next, details } = applyTransition(order, input, move.to, { party, keyId: caller.keyId }, at);
    const audit: AuditRecord = {
      entryId: newId('audit'),
      at,
      actor: actorOf(caller, party),
      action: input.action,
      fromStatus: order.status,
      toStatus: move.to,
      details,
    };
    if (await commitTransition(read, next, audit, when)) return viewFor(next, party);
    const current = await getOrder(orderId);
    if (!current) throw fail.notFound(`Order ${orderId} not found`);
    if (attempt >= TRANSITION_ATTEMPTS) {
      throw fail.collision(`The order kept changing while this ${input.action} was made and is now ${current.order.status}: read it and decide again`);
    }
    read = current;
    order = current.order;
  }
}

/**
 * Records the expiry of an order's approval (the scheduled worker): declined, `approval_expired`, its
 * units and spend released, order.declined to its buyer — once: false when it was decided or expired
 * meanwhile.
 */
export async function expireApproval(read: StoredOrder, now: Date): Promise<boolean> {
  const { order } = read;
  const at = now.toISOString();
  if (!order.approval || order.approval.expiresAt > at) return false;
  const move = orderMove(order.status, 'expire-approval', 'system');
  if (!('to' in move)) return false;
  const { next, details } = applyTransition(order, { action: 'expire-approval' }, move.to, 'system', at);
  const audit: AuditRecord = { entryId: newId('audit'), at, actor: 'system', action: 'decline', fromStatus: order.status, toStatus: move.to, details };
  return commitTransition(read, next, audit, now);
}

/**
 * Closes the approval window of the caller's order now (the sandbox's test helper): an order awaiting
 * approval is declined with `approval_expired` as the expiry worker would decline it — the system's
 * audit entry, its units and spend released, order.declined to the buyer. Any other status: 409.
 */
export async function expireApprovalNow(caller: TradeCaller, orderId: string, now: Date): Promise<Order> {
  const { read, order, party } = await orderOf(caller, orderId);
  if (order.status !== 'awaiting_approval' || !order.approval) {
    throw fail.conflict(`The order is ${order.status}: only an order awaiting approval has an approval to expire`, statusDetails(order.status));
  }
  const at = now.toISOString();
  const move = orderMove(order.status, 'expire-approval', 'system');
  if (!('to' in move)) throw fail.conflict(`The order is ${order.status}: its approval cannot expire`, statusDetails(order.status));
  const due: Order = { ...order, approval: { ...order.approval, expiresAt: at } };
  const { next, details } = applyTransition(due, { action: 'expire-approval' }, move.to, 'system', at);
  const audit: AuditRecord = { entryId: newId('audit'), at, actor: 'system', action: 'decline', fromStatus: order.status, toStatus: move.to, details };
  await commitTransition(read, next, audit, now);
  return viewFor(next, party);
}

/** Orders whose approval expired at `now`, from the due-work index. */
export function listExpiredApprovalOrders(now: Date, limit: number): Promise<StoredOrder[]> {
  return listExpiredApprovals(now, limit);
}

export async function getOrderForCaller(caller: TradeCaller, orderId: string): Promise<Order> {
  const { order, party } = await orderOf(caller, orderId);
  return viewFor(order, party);
}

export async function listOrdersForCaller(caller: TradeCaller, query: { limit: number; cursor?: string | undefined; status?: OrderStatus | undefined; role?: Party | undefined }) {
  const scope = `orders:${caller.agentId}:${query.role ?? ''}:${query.status ?? ''}`;
  const startKey = decodeCursor(scope, query.cursor);
  // An agent has one role: asking for its orders in the other role finds none.
  if (query.role !== undefined && query.role !== caller.role) return { items: [], nextCursor: null };
  const page = await listOrdersOf(caller.role, caller.agentId, { limit: query.limit, startKey, ...(query.status ? { status: query.status } : {}) });
  return { items: page.items.map((order) => viewFor(order, caller.role)), nextCursor: encodeCursor(scope, page.lastKey) };
}

export async function listAuditForCaller(caller: TradeCaller, orderId: string, query: { limit: number; cursor?: string | undefined }) {
  await orderOf(caller, orderId);
  const scope = `audit:${caller.agentId}:${orderId}`;
  const page = await listAuditEntries(orderId, { limit: query.limit, startKey: decodeCursor(scope, query.cursor) });
  return { items: page.items, nextCursor: encodeCursor(scope, page.lastKey) };
}
