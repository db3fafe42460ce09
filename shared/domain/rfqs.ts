// Requests for quotes (contract §5.7): a buyer puts one need to many sellers; each seller it reaches
// answers with one sealed quote (replaceable while the RFQ is open); the buyer awards one, which becomes
// an accepted negotiation session at the quote's terms — so create-order, the key's spending limits and
// approvals apply to it unchanged. The use cases here are transport-neutral: the API's handlers, the
// workers and (later) MCP tools call the same functions with a caller.
//
// Who may do what from which status, quote validity, ranking and the awarded session are the pure rules
// of rfq-states.ts. Every change is written conditionally (shared/data/rfqs.ts): a quote together with a
// check that the RFQ is still open and before closesAt; an award, a cancel or the closing on the RFQ's
// version; recipients and their events once per seller. Finding the sellers and telling them it closed
// is the dispatch worker's (off the request path), with the same matching as search.
import { backoff } from '../backoff.ts';
import { config } from '../config.ts';
import { getAgentItem } from '../data/agents.ts';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { newEventPutRequest, recordEvent, type NewEvent } from '../data/events.ts';
import { newNegotiationOperation } from '../data/negotiations.ts';
import { getOffer, getProductBySku, getProductWithOffers, type OfferItem, type ProductItem } from '../data/products.ts';
import {
  getQuote,
  getRecipient,
  getRfq,
  getRfqs,
  listBuyerRfqs,
  listDueClosings,
  listDueDispatches,
  listQuotes,
  listRecipients,
  listSellerRecipients,
  listSellersTold,
  markDispatched,
  claimDispatch,
  DISPATCH_LEASE_MS,
  writeAll,
  newRfqOperation,
  putQuoteOperation,
  quoteRevisionCheck,
  replaceRfqOperation,
  rfqOpenCheck,
  RfqEntity,
  transactWrite,
  TransactionRefused,
  type QuoteItem,
  type RfqItem,
} from '../data/rfqs.ts';
import type { TransactOperation } from '../data/transactions.ts';
import { fail, Failure, invalidFields, type FieldProblem } from '../failures.ts';
import { newId } from '../ids.ts';
import type { Role } from '../schemas/agents.ts';
import { MAX_RFQ_SELLERS, type CreateRfqRequest, type Quote, type Rfq, type SubmitQuoteRequest } from '../schemas/rfqs.ts';
import type { RfqStatus } from '../schemas/rfq-parts.ts';
import { awardedSession, awardRefusal, quoteProblems, quoteStatusIn, rankQuotes, rfqMove, rfqStateDetails, rfqStatusAt, type RfqAction } from './rfq-states.ts';
import { matchingTerms, rfqMatchQuery } from './rfq-matching.ts';
import { currentSearchIndex } from './search-index.ts';

export interface RfqCaller {
  agentId: string;
  role: Role;
  keyId?: string | undefined;
}

/** The longest an RFQ may stay open (contract §5.7: 14 days). */
export const RFQ_MAX_OPEN_SECONDS = 14 * 24 * 60 * 60;

/** Events an RFQ's dispatch run writes between two looks at its lease: 8 BatchWriteItem calls of 25. */
const EVENTS_PER_LEASE_CHECK = 200;

/** Transactions that collided with a concurrent one changed nothing: sent again, up to this many times. */
const WRITE_ATTEMPTS = 8;

async function write(operations: readonly TransactOperation[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transactWrite(operations);
    } catch (error) {
      if (!(error instanceof Failure && error.kind === 'conflict' && error.transient) || attempt >= WRITE_ATTEMPTS) throw error;
      await backoff(attempt);
    }
  }
}

type StoredRfq = Omit<RfqItem, 'version'>;

function toQuote(item: QuoteItem, rfq: RfqItem, now: Date): Quote {
  const { buyerId: _buyer, productSku: _sku, ...quote } = item;
  return { ...quote, status: quoteStatusIn({ ...item, status: 'submitted' }, rfq, now), totalAmount: { amount: item.unitPrice * item.quantity, currency: item.currency } };
}

/** What the RFQ's buyer sees: everything, with every quote best first (on a single RFQ). */
function buyerView(rfq: RfqItem, now: Date, quotes?: readonly QuoteItem[]): Rfq {
  const { version: _version, matchedAt: _matched, sellersToldAt: _told, ...shown } = rfq;
  return {
    ...shown,
    status: rfqStatusAt(rfq, now),
    ...(quotes ? { quotes: rankQuotes(quotes.map((quote) => toQuote(quote, rfq, now)), now) } : {}),
  };
}

/** What a seller it was sent to sees: the request, its own quote, and the award only when it won; never who else was asked. */
function sellerView(rfq: RfqItem, sellerId: string, now: Date, own?: QuoteItem | null): Rfq {
  const { version: _version, matchedAt: _matched, sellersToldAt: _told, invitedSellerIds: _invited, sellerCount: _count, ...shown } = rfq;
  const won = own !== undefined && own !== null && rfq.awardedQuoteId === own.quoteId;
  return {
    ...shown,
    status: rfqStatusAt(rfq, now),
    awardedQuoteId: won ? rfq.awardedQuoteId : null,
    sessionId: won ? rfq.sessionId : null,
    ...(own === undefined ? {} : { quotes: own ? [toQuote(own, rfq, now)] : [] }),
  };
}

/** The RFQ if the caller is its buyer or a seller it was sent to; anyone else: 404, revealing nothing. */
async function rfqOf(caller: RfqCaller, rfqId: string): Promise<{ rfq: RfqItem; party: 'buyer' | 'seller' }> {
  const rfq = await getRfq(rfqId);
  if (rfq && caller.role === 'buyer' && rfq.buyerId === caller.agentId) return { rfq, party: 'buyer' };
  if (rfq && caller.role === 'seller' && (await getRecipient(rfqId, caller.agentId))) return { rfq, party: 'seller' };
  throw fail.notFound(`Request for quotes ${rfqId} not found`);
}

function refuse(result: ReturnType<typeof rfqMove>): asserts result is { to: RfqStatus } {
  if ('refused' in result) throw new Failure(result.refused, result.message, result.details);
}

/** The problems of invited seller ids: each once, each a seller of this marketplace. */
async function invitationProblems(sellerIds: readonly string[]): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  const agents = await Promise.all(sellerIds.map((id) => getAgentItem(id)));
  sellerIds.forEach((id, index) => {
    if (seen.has(id)) problems.push({ path: `sellerIds.${index}`, message: `${id} is listed twice` });
    seen.add(id);
    const agent = agents[index];
    if (!agent || agent.role !== 'seller') problems.push({ path: `sellerIds.${index}`, message: `${id} is not a seller of this marketplace` });
  });
  return problems;
}

export async function createRfq(caller: RfqCaller, request: CreateRfqRequest, now: Date): Promise<Rfq> {
  const problems: FieldProblem[] = [];
  const closesAt = Date.parse(request.closesAt);
  const minimum = config().RFQ_MIN_CLOSE_SECONDS;
  const soonest = now.getTime() + minimum * 1000;
  const latest = now.getTime() + RFQ_MAX_OPEN_SECONDS * 1000;
  if (closesAt < soonest || closesAt > latest) {
    problems.push({ path: 'closesAt', message: `Must be ${minimum >= 3600 ? `${minimum / 3600} h` : `${minimum} s`} to 14 days ahead: between ${new Date(soonest).toISOString()} and ${new Date(latest).toISOString()}` });
  }
  if (request.sellerIds) problems.push(...(await invitationProblems(request.sellerIds)));
  if (problems.length > 0) throw invalidFields(problems);
  const at = now.toISOString();
  const rfq: StoredRfq = {
    rfqId: newId('rfq'),
    buyerId: caller.agentId,
    status: 'open',
    title: request.title,
    description: request.description ?? null,
    category: request.category ?? null,
    keywords: request.keywords ?? [],
    quantity: request.quantity,
    unit: request.unit ?? null,
    currency: request.currency,
    maxUnitPrice: request.maxUnitPrice ?? null,
    shipsFrom: request.shipsFrom ?? [],
    deliverBy: request.deliverBy ?? null,
    shipTo: request.shipTo ?? null,
    closesAt: new Date(closesAt).toISOString(),
    invitedSellerIds: request.sellerIds ?? [],
    sellerCount: null,
    awardedQuoteId: null,
    sessionId: null,
    cancellationReason: null,
    closedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  await write([newRfqOperation(rfq)]);
  return buyerView({ ...rfq, version: 1 }, now, []);
}

export async function getRfqForCaller(caller: RfqCaller, rfqId: string, now: Date): Promise<Rfq> {
  const { rfq, party } = await rfqOf(caller, rfqId);
  if (party === 'buyer') return buyerView(rfq, now, await listQuotes(rfqId));
  return sellerView(rfq, caller.agentId, now, (await getQuote(rfqId, caller.agentId)) ?? null);
}

/** The filter that selects RFQs whose status at `now` is `status` (an open RFQ past closesAt is closed). */
function statusFilter(status: RfqStatus, now: Date) {
  const { and, eq, gt, le, or } = RfqEntity.where;
  const at = now.toISOString();
  if (status === 'open') return and(eq('status', 'open'), gt('closesAt', at));
  if (status === 'closed') return or(eq('status', 'closed'), and(eq('status', 'open'), le('closesAt', at)));
  return eq('status', status);
}

/**
 * A buyer's own RFQs (every status unless `status`), or the RFQs a seller was sent (open ones unless
 * `status`: those it may quote on), newest first.
 */
export async function listRfqsForCaller(caller: RfqCaller, query: { limit: number; cursor?: string | undefined; status?: RfqStatus | undefined }, now: Date) {
  if (caller.role === 'buyer') {
    const scope = `rfqs:${caller.agentId}:${query.status ?? ''}`;
    const page = await listBuyerRfqs(caller.agentId, { limit: query.limit, startKey: decodeCursor(scope, query.cursor), filter: query.status ? statusFilter(query.status, now) : undefined });
    return { items: page.items.map((rfq) => buyerView(rfq, now)), nextCursor: encodeCursor(scope, page.lastKey) };
  }
  const status = query.status ?? 'open';
  const scope = `rfqs:${caller.agentId}:${status}`;
  const items: Rfq[] = [];
  let startKey = decodeCursor(scope, query.cursor);
  // The seller's list holds every RFQ it was sent; those in another status are passed over.
  do {
    const page = await listSellerRecipients(caller.agentId, { limit: query.limit - items.length, startKey });
    const rfqs = await getRfqs(page.items.map((recipient) => recipient.rfqId));
    for (const recipient of page.items) {
      const rfq = rfqs.get(recipient.rfqId);
      if (rfq && rfqStatusAt(rfq, now) === status) items.push(sellerView(rfq, caller.agentId, now));
    }
    startKey = page.lastKey;
  } while (startKey && items.length < query.limit);
  return { items, nextCursor: encodeCursor(scope, startKey) };
}

/** Writes a change of the RFQ as read; another change in between: read it again and decide again (`attempts` times). */
async function changeRfq(caller: RfqCaller, rfqId: string, action: RfqAction, change: (rfq: RfqItem) => Promise<{ next: StoredRfq; operations: TransactOperation[] }>, now: Date): Promise<RfqItem> {
  for (let attempt = 1; ; attempt++) {
    const { rfq } = await rfqOf(caller, rfqId);
    refuse(rfqMove(rfq, action, 'buyer', now));
    const { next, operations } = await change(rfq);
    try {
      await write([replaceRfqOperation(rfq, next), ...operations]);
      return { ...next, version: rfq.version + 1 };
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
      if (error.has('quote')) throw fail.conflict('The seller replaced the quote meanwhile: read the RFQ and decide again', [{ path: 'quoteId', message: 'The quote has a newer revision' }]);
      // The RFQ moved (a quote's closing, an award or a cancel landed first): decide again on what it is now.
      if (!error.has('rfq') || attempt >= WRITE_ATTEMPTS) throw error;
    }
  }
}

export async function cancelRfq(caller: RfqCaller, rfqId: string, request: { reason?: string | undefined }, now: Date): Promise<Rfq> {
  const at = now.toISOString();
  const next = await changeRfq(
    caller,
    rfqId,
    'cancel',
    (rfq) => Promise.resolve({ next: { ...rfq, status: 'cancelled', cancellationReason: request.reason ?? null, closedAt: rfq.closedAt ?? at, updatedAt: at }, operations: [] }),
    now,
  );
  return buyerView(next, now, await listQuotes(rfqId));
}

/**
 * The buyer awards a quote (RFQ open or closed, quote not expired): the RFQ becomes `awarded`, the quote
 * an accepted negotiation session at its terms, and rfq.awarded goes to the buyer and the winner — in one
 * transaction, on the condition that the RFQ and the quote are as read. The others hear rfq.closed from
 * the dispatch worker.
 */
export async function awardQuote(caller: RfqCaller, rfqId: string, request: { quoteId: string }, now: Date): Promise<Rfq> {
  const at = now.toISOString();
  const next = await changeRfq(
    caller,
    rfqId,
    'award',
    async (rfq) => {
      const quote = (await listQuotes(rfqId)).find((candidate) => candidate.quoteId === request.quoteId);
      if (!quote) throw fail.notFound(`Quote ${request.quoteId} not found on ${rfqId}`);
      // Stored quotes are undecided until their RFQ decides (quoteStatusIn); an RFQ that can be awarded has decided none.
      const refusal = awardRefusal({ status: 'submitted', validUntil: quote.validUntil }, now);
      if (refusal) throw new Failure(refusal.refused, refusal.message, refusal.details);
      const sessionId = newId('negotiation');
      const product = await getProductBySku(quote.sellerId, quote.productSku);
      const session = awardedSession({ sessionId, rfq, quote, title: product?.title ?? null }, now);
      const { operation: event } = recordEvent(
        {
          type: 'rfq.awarded',
          data: { rfqId, buyerId: rfq.buyerId, sellerId: quote.sellerId, quoteId: quote.quoteId, sessionId, currency: quote.currency, unitPrice: quote.unitPrice, quantity: quote.quantity },
          agentIds: [rfq.buyerId, quote.sellerId],
        },
        now,
      );
      return {
        next: { ...rfq, status: 'awarded', awardedQuoteId: quote.quoteId, sessionId, closedAt: rfq.closedAt ?? at, updatedAt: at },
        operations: [quoteRevisionCheck(quote), newNegotiationOperation(session, { sellerId: quote.sellerId, sku: quote.productSku }), event],
      };
    },
    now,
  );
  return buyerView(next, now, await listQuotes(rfqId));
}

/** The seller's offer a quote sells: the one it names (its own, active), else its best match for the request. */
export async function quotedOffer(sellerId: string, rfq: RfqItem, offerId: string | undefined, now: Date): Promise<{ offer: OfferItem; product: ProductItem }> {
  let chosen = offerId;
  if (chosen === undefined) {
    const index = await currentSearchIndex();
    const query = rfqMatchQuery(rfq, matchingTerms(rfq, index, now), now);
    const hit = index.search({ ...query, filters: { ...query.filters, sellerId }, sort: 'relevance', limit: 1 }).hits[0];
    if (!hit) throw invalidFields([{ path: 'offerId', message: `None of your active offers in ${rfq.currency} matches this request: name the offer you quote` }]);
    chosen = hit.offer.offerId;
  }
  const offer = await getOffer(chosen);
  const found = offer && offer.sellerId === sellerId ? await getProductWithOffers(offer.productId) : undefined;
  const live = offer && offer.status === 'active' && (offer.validUntil === null || Date.parse(offer.validUntil) > now.getTime());
  if (!offer || !found || !live || found.product.status !== 'active') throw invalidFields([{ path: 'offerId', message: `${chosen} is not an active offer of yours` }]);
  return { offer, product: found.product };
}

/**
 * A seller it was sent to quotes on an open RFQ, or replaces its quote: checked against the RFQ's
 * currency and cap and the product's stock (422), written with a check that the RFQ is still open and
 * before closesAt (409 after), with rfq.quote_received to the buyer.
 */
export async function submitQuote(caller: RfqCaller, rfqId: string, request: SubmitQuoteRequest, now: Date): Promise<Quote> {
  for (let attempt = 1; ; attempt++) {
    const { rfq } = await rfqOf(caller, rfqId);
    refuse(rfqMove(rfq, 'quote', 'seller', now));
    const { offer, product } = await quotedOffer(caller.agentId, rfq, request.offerId, now);
    const terms = { unitPrice: request.unitPrice, quantity: request.quantity, currency: offer.unitPrice.currency, leadTimeDays: request.leadTimeDays, validUntil: request.validUntil };
    const problems = quoteProblems(terms, { rfq, available: product.availableQuantity, minimum: Math.max(offer.minQuantity, product.minOrderQuantity) }, now);
    if (problems.length > 0) throw invalidFields(problems);
    const previous = await getQuote(rfqId, caller.agentId);
    const at = now.toISOString();
    const quote: QuoteItem = {
      quoteId: previous?.quoteId ?? newId('quote'),
      rfqId,
      buyerId: rfq.buyerId,
      sellerId: caller.agentId,
      offerId: offer.offerId,
      productId: product.productId,
      productSku: product.sku,
      currency: terms.currency,
      unitPrice: terms.unitPrice,
      quantity: terms.quantity,
      leadTimeDays: terms.leadTimeDays,
      validUntil: new Date(Date.parse(terms.validUntil)).toISOString(),
      message: request.message ?? null,
      revision: (previous?.revision ?? 0) + 1,
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
    };
    const { operation: event } = recordEvent(
      {
        type: 'rfq.quote_received',
        data: {
          rfqId,
          buyerId: rfq.buyerId,
          quote: { quoteId: quote.quoteId, sellerId: quote.sellerId, offerId: quote.offerId, currency: quote.currency, unitPrice: quote.unitPrice, quantity: quote.quantity, leadTimeDays: quote.leadTimeDays, validUntil: quote.validUntil, revision: quote.revision },
        },
        agentIds: [rfq.buyerId],
      },
      now,
    );
    try {
      await write([rfqOpenCheck(rfqId, now), putQuoteOperation(quote, previous), event]);
      return toQuote(quote, { ...rfq, status: 'open' }, now);
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
      if (error.has('open')) {
        const current = (await getRfq(rfqId)) ?? rfq;
        const status = rfqStatusAt(current, now);
        throw fail.conflict(`The request for quotes is ${status === 'open' ? 'closing' : status}: it takes no more quotes`, rfqStateDetails(status === 'open' ? 'closed' : status));
      }
      // The seller's own quote changed in between (a parallel submission): submit again on top of it.
      if (attempt >= WRITE_ATTEMPTS) throw fail.collision('Your quote changed while this one was submitted: submit it again');
    }
  }
}

// The marketplace's side: closing at closesAt, finding the sellers, telling them it closed.

/** Records an open RFQ past closesAt as closed, with rfq.closed to its buyer — once: false when it moved meanwhile. */
export async function closeRfq(rfq: RfqItem, now: Date): Promise<boolean> {
  if ('refused' in rfqMove(rfq, 'close', 'system', now)) return false;
  const at = now.toISOString();
  const quotes = await listQuotes(rfq.rfqId);
  const { operation: event } = recordEvent({ type: 'rfq.closed', data: { rfqId: rfq.rfqId, buyerId: rfq.buyerId, status: 'closed', quoteCount: quotes.length }, agentIds: [rfq.buyerId] }, now);
  try {
    await write([replaceRfqOperation(rfq, { ...rfq, status: 'closed', closedAt: at, updatedAt: at }), event]);
    return true;
  } catch (error) {
    if (error instanceof TransactionRefused) return false;
    throw error;
  }
}

/** Open RFQs past closesAt, from the closing index. */
export function listRfqsDueToClose(now: Date, limit: number): Promise<RfqItem[]> {
  return listDueClosings(now, limit);
}

/** RFQs whose sellers are still to be found or told it closed. */
export function listRfqsDueForDispatch(limit: number): Promise<RfqItem[]> {
  return listDueDispatches(limit);
}

/** A dispatch run stopped writing before its lease could pass: the next run takes over (after the lease) and sends the rest. */
export class DispatchLeaseRunningOut extends Error {}

/**
 * Writes events to sellers, in BatchWriteItem calls, while the run's lease (taken at `claimedAt`,
 * performance.now()) has at least half its time left: after that it stops and throws, so that a run
 * taking over after the lease never writes beside this one. Each event's id is chosen as it is written
 * (its time is when it lands in the feed, which feed followers rely on).
 */
async function writeWhileLeased(events: readonly NewEvent[], now: Date, claimedAt: number, options: { kept?: boolean } = {}): Promise<number> {
  for (let start = 0; start < events.length; start += EVENTS_PER_LEASE_CHECK) {
    if (performance.now() - claimedAt > DISPATCH_LEASE_MS / 2) throw new DispatchLeaseRunningOut(`Dispatch run out of lease time after ${start} of ${events.length} events`);
    await writeAll(events.slice(start, start + EVENTS_PER_LEASE_CHECK).map((event) => newEventPutRequest(event, now, options).request));
  }
  return events.length;
}

/** The sellers an RFQ goes to: those invited, else those whose active catalog matches it (as search matches). */
export async function rfqSellers(rfq: RfqItem, now: Date): Promise<{ sellerId: string; invited: boolean }[]> {
  if (rfq.invitedSellerIds.length > 0) return rfq.invitedSellerIds.map((sellerId) => ({ sellerId, invited: true }));
  const index = await currentSearchIndex();
  const query = rfqMatchQuery(rfq, matchingTerms(rfq, index, now), now);
  return index
    .sellersMatching(query)
    .filter((sellerId) => sellerId !== rfq.buyerId)
    .slice(0, MAX_RFQ_SELLERS)
    .map((sellerId) => ({ sellerId, invited: false }));
}

/**
 * Sends the RFQ to its sellers: an rfq.created to each, which is also its recipient record. Off the
 * request path and at catalog scale (hundreds of sellers), so in batched writes of one item per seller
 * (docs/decisions/rfq-recipients-are-events.md): one run at a time holds the RFQ (claimDispatch), and
 * writes only to the sellers not sent it yet, so a run that takes over from one that died finishes its
 * work without sending anyone the RFQ twice. The RFQ is marked matched (sellerCount) only once every
 * event is written.
 */
async function sendToSellers(read: RfqItem, now: Date): Promise<number> {
  const rfq = await claimDispatch(read, now);
  if (!rfq) return 0;
  const claimedAt = performance.now();
  // Cancelled before its sellers were found: nobody is told of it.
  const sellers = rfq.status === 'cancelled' ? [] : await rfqSellers(rfq, now);
  const sent = new Set((await listRecipients(rfq.rfqId)).map((recipient) => recipient.sellerId));
  const events = sellers
    .filter(({ sellerId }) => !sent.has(sellerId))
    .map(({ sellerId, invited }): NewEvent => ({
      type: 'rfq.created',
      data: { rfqId: rfq.rfqId, sellerId, title: rfq.title, quantity: rfq.quantity, currency: rfq.currency, maxUnitPrice: rfq.maxUnitPrice, closesAt: rfq.closesAt, invited },
      agentIds: [sellerId],
    }));
  // Kept: the recipient record outlives the events feed's 30 days (the seller reads its RFQ, the award tells it).
  await writeWhileLeased(events, now, claimedAt, { kept: true });
  await markDispatched(rfq.rfqId, 'matchedAt', now, sellers.length);
  return sellers.length;
}

/** Tells every seller it was sent to, except the winner, that it closed (awarded to another, or cancelled), once each: the same lease and batches as sending it. */
async function tellSellersClosed(read: RfqItem, now: Date): Promise<number> {
  const rfq = await claimDispatch(read, now);
  if (!rfq) return 0;
  const claimedAt = performance.now();
  const status = rfq.status as 'awarded' | 'cancelled';
  const winner = rfq.awardedQuoteId ? (await listQuotes(rfq.rfqId)).find((quote) => quote.quoteId === rfq.awardedQuoteId)?.sellerId : undefined;
  const [recipients, told] = await Promise.all([listRecipients(rfq.rfqId), listSellersTold(rfq.rfqId)]);
  const events = recipients
    .filter((recipient) => recipient.sellerId !== winner && !told.has(recipient.sellerId))
    .map((recipient): NewEvent => ({ type: 'rfq.closed', data: { rfqId: rfq.rfqId, sellerId: recipient.sellerId, status }, agentIds: [recipient.sellerId] }));
  const written = await writeWhileLeased(events, now, claimedAt);
  await markDispatched(rfq.rfqId, 'sellersToldAt', now);
  return written;
}

/**
 * The dispatch worker's step for one RFQ, safe to run any number of times: finds and tells its sellers
 * (rfq.created) once, and once it is awarded or cancelled tells them it closed (rfq.closed), once each.
 */
export async function dispatchRfq(rfqId: string, now: Date): Promise<{ sent: number; told: number }> {
  let rfq = await getRfq(rfqId);
  let sent = 0;
  let told = 0;
  if (!rfq) return { sent, told };
  if (rfq.matchedAt === undefined) {
    sent = await sendToSellers(rfq, now);
    rfq = await getRfq(rfqId);
  }
  if (rfq && rfq.matchedAt !== undefined && rfq.sellersToldAt === undefined && (rfq.status === 'awarded' || rfq.status === 'cancelled')) told = await tellSellersClosed(rfq, now);
  return { sent, told };
}
