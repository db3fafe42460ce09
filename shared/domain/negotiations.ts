// Negotiating an offer (contract §3 "Negotiation session"): a buyer opens a session with a proposal,
// the parties take turns (counter or accept the other side's terms; either may reject while open),
// at most MAX_ROUNDS proposals. A session expires NEGOTIATION_TTL_SECONDS after its last move: it
// reads as `expired` from that instant on, and the expiry sweep records it with its event.
//
// The seller's private policy on the offer answers buyer proposals at once, on the seller's behalf:
// at or above `autoAcceptUnitPrice` it accepts; with a concession strategy (a floor, or `firm`) it
// answers every other proposal, accepting one at or above its current ask and countering the rest
// with that ask (the curves: seller-policy.ts). Such moves are marked `automatic`.
//
// Terms are checked whenever they are proposed or accepted (trade-terms.ts): the quantity against the
// minimum order and the stock as they are now, the total against what an order can hold.
//
// Who may move, which statuses take which moves, rounds and expiry are the pure rule of
// negotiation-states.ts. Every change is computed from the session as read and written, with its
// events, on the condition that the stored session has not moved since (shared/data/negotiations.ts,
// which owns the version and the traded product's key): racing moves have one winner.
//
// This module holds the use cases (start, move, read, list, expire); the policy's answers are
// negotiation-policy.ts's, and how a session is seen (by a reader, in its events) negotiation-views.ts's.
import { config } from '../config.ts';
import { recordEvent } from '../data/events.ts';
import {
  getNegotiation,
  getTradedProduct,
  listNegotiationsOf,
  NegotiationChanged,
  NegotiationEntity,
  newNegotiationOperation,
  replaceNegotiationOperation,
  writeNegotiation,
  type StoredNegotiation,
} from '../data/negotiations.ts';
import { getOffer, getProductWithOffers, type OfferItem, type ProductItem } from '../data/products.ts';
import type { TransactOperation } from '../data/transactions.ts';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { fail, Failure, invalidFields } from '../failures.ts';
import { newId } from '../ids.ts';
import type { Role } from '../schemas/agents.ts';
import { describeAmount } from '../schemas/money.ts';
import type { NegotiationMove, NegotiationSession, NegotiationStatus, Party } from '../schemas/trade.ts';
import { negotiationMove, openingState, stateDetails, statusAt, type Mover, type SessionMove, type SessionState } from './negotiation-states.ts';
import { offerPriceFor, policyAnswer } from './negotiation-policy.ts';
import { eventData, moveEvent, toSession } from './negotiation-views.ts';
import { overListProblem, proposalProblems, quantityProblem, totalProblem, type QuantityLimits } from './trade-terms.ts';
import { countMetric } from '../metrics.ts';

const { and, eq, gt, le, or } = NegotiationEntity.where;

export interface TradeCaller {
  agentId: string;
  role: Role;
  /** The key that made the request: the audit trail names it. */
  keyId?: string | undefined;
}

function partyOf(session: NegotiationSession, agentId: string): Party | undefined {
  if (session.buyerId === agentId) return 'buyer';
  if (session.sellerId === agentId) return 'seller';
  return undefined;
}

/** The session, if the caller is one of its parties (anyone else: 404, revealing nothing). */
async function sessionOf(caller: TradeCaller, sessionId: string): Promise<{ read: StoredNegotiation; item: NegotiationSession; party: Party }> {
  const read = await getNegotiation(sessionId);
  const party = read ? partyOf(read.session, caller.agentId) : undefined;
  if (!read || !party) throw fail.notFound(`Negotiation session ${sessionId} not found`);
  return { read, item: read.session, party };
}

const conflict = (message: string, item: NegotiationSession, now: Date) => fail.conflict(message, stateDetails(item, now));

/** The state machine's verdict on a move (negotiation-states.ts): the session's next state, or the failure its refusal is. */
export function decideMove(item: SessionState, move: SessionMove, by: Mover, now: Date): SessionState {
  const result = negotiationMove(item, move, by, now, config().NEGOTIATION_TTL_SECONDS);
  if ('refused' in result) throw new Failure(result.refused, result.message, result.details);
  return result.next;
}

function quantityLimits(offer: OfferItem, product: ProductItem): QuantityLimits {
  return { minimum: Math.max(offer.minQuantity, product.minOrderQuantity), available: product.availableQuantity };
}

/** The offer and product a session trades, as they are now. */
async function tradedItems(read: StoredNegotiation): Promise<{ offer: OfferItem; product: ProductItem }> {
  const [offer, product] = await Promise.all([getOffer(read.session.offerId), getTradedProduct(read)]);
  // Offers and products are never deleted (a withdrawn offer stays, with its product inactive).
  if (!offer || !product) throw new Error(`Negotiation ${read.session.sessionId} refers to an offer or product that does not exist`);
  return { offer, product };
}

/**
 * A session with one more move applied: its state as the state machine decided it (`state`), the
 * move in its history and, for a counter, the move's terms.
 */
function applyMove(item: NegotiationSession, move: NegotiationMove, state: SessionState, now: Date): NegotiationSession {
  const terms = move.action === 'counter' ? { unitPrice: move.unitPrice, quantity: move.quantity } : {};
  return { ...item, ...state, ...terms, history: [...item.history, move], updatedAt: now.toISOString() };
}

/** Applies a move of the seller's policy, which the state machine allows whenever the policy makes one. */
function applyAutomatic(item: NegotiationSession, move: NegotiationMove, now: Date): NegotiationSession {
  if (move.action === 'propose') throw new Error('An opening proposal is not a move on a session');
  return applyMove(item, move, decideMove(item, { action: move.action }, 'seller', now), now);
}

interface Step {
  move: NegotiationMove;
  /** The session right after the move. */
  state: NegotiationSession;
}

/**
 * Writes the session's last state with one event per move: as a new session trading `product`, or in
 * place of the session as read, on the condition that it has not moved and is not past its expiry.
 */
async function commit(from: { read: StoredNegotiation } | { product: ProductItem }, steps: readonly Step[], now: Date): Promise<void> {
  const last = (steps.at(-1) as Step).state;
  const operations: TransactOperation[] = [
    'read' in from ? replaceNegotiationOperation(from.read, last, gt('expiresAt', now.toISOString())) : newNegotiationOperation(last, from.product),
  ];
  steps.forEach(({ move, state }, index) => {
    const { operation } = recordEvent(moveEvent(state, move), now);
    operations.push({ ...operation, name: `event${index}` });
  });
  await writeNegotiation(operations);
  if (!('read' in from)) countMetric('negotiationsOpened');
  // A session only moves while open: one that is accepted now was accepted by this write.
  if (last.status === 'accepted') countMetric('negotiationsAccepted');
}

async function liveOffer(offerId: string, now: Date): Promise<OfferItem> {
  const offer = await getOffer(offerId);
  // Withdrawn, expired and unknown offers are all simply not there for a buyer.
  if (!offer || offer.status !== 'active' || (offer.validUntil !== null && Date.parse(offer.validUntil) <= now.getTime())) throw fail.notFound(`Offer ${offerId} not found`);
  return offer;
}

export async function startNegotiation(
  buyerId: string,
  request: { offerId: string; quantity: number; unitPrice?: number | undefined; message?: string | undefined },
  now: Date,
): Promise<NegotiationSession> {
  const offer = await liveOffer(request.offerId, now);
  const found = await getProductWithOffers(offer.productId);
  if (!found || found.product.status !== 'active') throw fail.notFound(`Offer ${request.offerId} not found`);
  const { product } = found;
  const listPrice = offerPriceFor(offer, request.quantity);
  const proposal = request.unitPrice ?? listPrice;
  const problems = proposalProblems({ quantity: request.quantity, unitPrice: proposal, currency: offer.unitPrice.currency, listPrice, limits: quantityLimits(offer, product) });
  const overList = overListProblem(proposal, listPrice, request.quantity, offer.unitPrice.currency);
  if (overList) problems.push(overList);
  else if (!offer.negotiable && proposal !== listPrice) problems.push({ path: 'unitPrice', message: `This offer is not negotiable: omit unitPrice or propose its price for this quantity, ${describeAmount(listPrice, offer.unitPrice.currency)}` });
  if (problems.length > 0) throw invalidFields(problems);

  const at = now.toISOString();
  const state = openingState(now, config().NEGOTIATION_TTL_SECONDS);
  const opening: NegotiationMove = { round: state.round, by: 'buyer', action: 'propose', unitPrice: proposal, quantity: request.quantity, message: request.message ?? null, automatic: false, at };
  let item: NegotiationSession = {
    sessionId: newId('negotiation'),
    offerId: offer.offerId,
    productId: offer.productId,
    // The product as it is named now: a later rename leaves the session and its order as they were.
    sku: product.sku,
    title: product.title,
    buyerId,
    sellerId: offer.sellerId,
    status: state.status,
    currency: offer.unitPrice.currency,
    quantity: request.quantity,
    unitPrice: proposal,
    turn: state.turn,
    round: state.round,
    maxRounds: state.maxRounds,
    history: [opening],
    expiresAt: state.expiresAt,
    acceptedAt: state.acceptedAt,
    orderId: state.orderId,
    createdAt: at,
    updatedAt: at,
  };
  const steps: Step[] = [{ move: opening, state: item }];
  const answer = policyAnswer(item, offer, listPrice, now);
  if (answer) {
    item = applyAutomatic(item, answer, now);
    steps.push({ move: answer, state: item });
  }
  await commit({ product }, steps, now);
  return toSession(item, now);
}

/**
 * Accepting is refused (409) when the terms on the table could not be ordered now: stock or the
 * minimum order changed since they were proposed. The order re-checks the stock atomically.
 */
async function refuseUnorderable(read: StoredNegotiation, now: Date): Promise<void> {
  const item = read.session;
  const { offer, product } = await tradedItems(read);
  const problem = quantityProblem(item.quantity, quantityLimits(offer, product)) ?? totalProblem(item.quantity, item.unitPrice, item.currency);
  if (!problem) return;
  throw fail.conflict(`The terms on the table cannot be ordered: quantity ${item.quantity}: ${problem}. Counter with terms that can, or reject`, [
    { path: 'quantity', message: problem },
    ...stateDetails(item, now),
  ]);
}

type MoveRequest =
  | { action: 'counter'; unitPrice: number; quantity?: number | undefined; message?: string | undefined }
  | { action: 'accept' | 'reject'; message?: string | undefined };

/** A party's move on an open session: counter, accept or reject. */
export async function moveNegotiation(caller: TradeCaller, sessionId: string, request: MoveRequest, now: Date): Promise<NegotiationSession> {
  const { read, item, party } = await sessionOf(caller, sessionId);
  // Turn, status, rounds and expiry first: the terms are checked only for a move the session takes.
  const state = decideMove(item, { action: request.action }, party, now);
  const at = now.toISOString();
  let move: NegotiationMove;
  let offer: OfferItem | undefined;
  if (request.action === 'counter') {
    const quantity = request.quantity ?? item.quantity;
    const traded = await tradedItems(read);
    offer = traded.offer;
    // The buyer's quantity must be orderable at any price the policy may ask, up to the offer's price for it.
    const listPrice = party === 'buyer' ? offerPriceFor(offer, quantity) : undefined;
    const problems = proposalProblems({ quantity, unitPrice: request.unitPrice, currency: item.currency, listPrice, limits: quantityLimits(offer, traded.product) });
    const overList = listPrice === undefined ? undefined : overListProblem(request.unitPrice, listPrice, quantity, item.currency);
    if (overList && !problems.some((problem) => problem.path === 'unitPrice')) problems.push(overList);
    if (problems.length > 0) {
      if (request.quantity === undefined) for (const problem of problems) if (problem.path === 'quantity') problem.message = `The quantity on the table, ${quantity}: ${problem.message}; send quantity with the counter`;
      throw invalidFields(problems);
    }
    move = { round: state.round, by: party, action: 'counter', unitPrice: request.unitPrice, quantity, message: request.message ?? null, automatic: false, at };
  } else {
    if (request.action === 'accept') await refuseUnorderable(read, now);
    move = { round: state.round, by: party, action: request.action, unitPrice: item.unitPrice, quantity: item.quantity, message: request.message ?? null, automatic: false, at };
  }
  let next = applyMove(item, move, state, now);
  const steps: Step[] = [{ move, state: next }];
  if (move.action === 'counter' && party === 'buyer' && offer && offer.status === 'active') {
    const answer = policyAnswer(next, offer, offerPriceFor(offer, next.quantity), now);
    if (answer) {
      next = applyAutomatic(next, answer, now);
      steps.push({ move: answer, state: next });
    }
  }
  try {
    await commit({ read }, steps, now);
  } catch (error) {
    if (error instanceof NegotiationChanged) {
      const current = error.current ?? item;
      throw conflict('The session changed while this move was made (another move landed first): read it and decide again', current, now);
    }
    throw error;
  }
  return toSession(next, now);
}

export async function getNegotiationForCaller(caller: TradeCaller, sessionId: string, now: Date): Promise<NegotiationSession> {
  const { item } = await sessionOf(caller, sessionId);
  return toSession(item, now);
}

/** The filter that selects sessions whose status at `now` is `status`. */
function statusFilter(status: NegotiationStatus, now: Date) {
  const at = now.toISOString();
  if (status === 'open') return and(eq('status', 'open'), gt('expiresAt', at));
  if (status === 'expired') return or(eq('status', 'expired'), and(eq('status', 'open'), le('expiresAt', at)));
  return eq('status', status);
}

export async function listNegotiationsForCaller(caller: TradeCaller, query: { limit: number; cursor?: string | undefined; status?: NegotiationStatus | undefined }, now: Date) {
  const status = query.status ?? 'open';
  const scope = `negotiations:${caller.agentId}:${status}`;
  const page = await listNegotiationsOf(caller.role, caller.agentId, { limit: query.limit, startKey: decodeCursor(scope, query.cursor), filter: statusFilter(status, now) });
  return { items: page.items.map((item) => toSession(item, now)), nextCursor: encodeCursor(scope, page.lastKey) };
}

/** Records one open session past its expiry as expired, with its negotiation.rejected event (reason `expired`); false if it moved meanwhile. */
export async function expireNegotiation(read: StoredNegotiation, now: Date): Promise<boolean> {
  const item = read.session;
  const expiry = negotiationMove(item, { action: 'expire' }, null, now, config().NEGOTIATION_TTL_SECONDS);
  if ('refused' in expiry) return false;
  const next: NegotiationSession = { ...item, ...expiry.next, updatedAt: now.toISOString() };
  const { operation } = recordEvent(
    { type: 'negotiation.rejected', data: { ...eventData(next, null, true), reason: 'expired' }, agentIds: [item.buyerId, item.sellerId] },
    now,
  );
  try {
    await writeNegotiation([
      replaceNegotiationOperation(read, next, and(eq('status', 'open'), le('expiresAt', now.toISOString()))),
      operation,
    ]);
    return true;
  } catch (error) {
    if (error instanceof NegotiationChanged) return false;
    throw error;
  }
}

/**
 * Applies a session's timeout now (the sandbox's test helper): an open session of the caller becomes
 * `expired`, with the negotiation.rejected event (reason `expired`) the expiry sweep would record, on
 * the condition that nobody moved it meanwhile. Any other status: 409 with the session's state.
 */
export async function expireNegotiationNow(caller: TradeCaller, sessionId: string, now: Date): Promise<NegotiationSession> {
  const { read, item } = await sessionOf(caller, sessionId);
  const status = statusAt(item, now);
  if (status === 'expired') return toSession(item, now);
  if (status !== 'open') throw conflict(`The session is ${status}: only an open session expires`, item, now);
  const due = { ...item, expiresAt: now.toISOString() };
  const expiry = negotiationMove(due, { action: 'expire' }, null, now, config().NEGOTIATION_TTL_SECONDS);
  if ('refused' in expiry) throw conflict(expiry.message, item, now);
  const next: NegotiationSession = { ...due, ...expiry.next, updatedAt: now.toISOString() };
  const { operation } = recordEvent({ type: 'negotiation.rejected', data: { ...eventData(next, null, true), reason: 'expired' }, agentIds: [item.buyerId, item.sellerId] }, now);
  try {
    await writeNegotiation([replaceNegotiationOperation(read, next, eq('status', 'open')), operation]);
  } catch (error) {
    if (error instanceof NegotiationChanged) throw conflict('The session changed while it was expired (another move landed first): read it and decide again', error.current ?? item, now);
    throw error;
  }
  return next;
}
