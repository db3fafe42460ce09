// The request for quotes' state machines (contract §5.7), as pure rules: an RFQ is `open` → `closed`
// (the marketplace, at closesAt) | `awarded` (its buyer, open or closed) | `cancelled` (its buyer, open or
// closed); a quote is `submitted` (one per seller, replaceable while the RFQ is open) → `accepted` (the
// award) | `declined` (another quote won, or the RFQ was cancelled), and it reads `expired` once its
// validUntil has passed. A quote's decision is read from its RFQ (quoteStatusIn), never written to
// every quote. An award turns the quote into an accepted negotiation session (awardedSession),
// so that create-order, spending limits and approvals apply with no path of their own.
//
// The rules decide from the records as read; the store's write conditions (shared/data/rfqs.ts) guard
// against what changed in between.
import type { FieldProblem } from '../failures.ts';
import type { NegotiationSession } from '../schemas/trade.ts';
import { MAX_ROUNDS } from '../schemas/trade-parts.ts';
import type { QuoteStatus, RfqStatus } from '../schemas/rfq-parts.ts';

export { QUOTE_STATUSES, RFQ_STATUSES, type QuoteStatus, type RfqStatus } from '../schemas/rfq-parts.ts';

export type RfqAction = 'quote' | 'close' | 'award' | 'cancel';
/** Who acts on an RFQ: its buyer, a seller it was sent to, or the marketplace (closing at closesAt). */
export type RfqActor = 'buyer' | 'seller' | 'system';

/** The fields of an RFQ the rules read. */
export interface RfqState {
  status: RfqStatus;
  closesAt: string;
}

/** The fields of a quote the rules read. */
export interface QuoteState {
  status: QuoteStatus;
  validUntil: string;
}

export interface RfqRefusal {
  refused: 'forbidden' | 'conflict';
  message: string;
  details: FieldProblem[];
}

/** The RFQ's status at `now`: an open RFQ past its closesAt is closed, whether or not the scheduler has recorded it. */
export function rfqStatusAt(rfq: RfqState, now: Date): RfqStatus {
  return rfq.status === 'open' && Date.parse(rfq.closesAt) <= now.getTime() ? 'closed' : rfq.status;
}

/** The quote's status at `now`: a submitted quote past its validUntil is expired. */
export function quoteStatusAt(quote: QuoteState, now: Date): QuoteStatus {
  return quote.status === 'submitted' && Date.parse(quote.validUntil) <= now.getTime() ? 'expired' : quote.status;
}

const RULES: Record<RfqAction, { by: RfqActor; from: readonly RfqStatus[]; to: RfqStatus }> = {
  // A quote leaves the RFQ open: it is the quote that is written.
  quote: { by: 'seller', from: ['open'], to: 'open' },
  close: { by: 'system', from: ['open'], to: 'closed' },
  award: { by: 'buyer', from: ['open', 'closed'], to: 'awarded' },
  cancel: { by: 'buyer', from: ['open', 'closed'], to: 'cancelled' },
};

const VERBS: Record<RfqAction, string> = { quote: 'quoted on', close: 'closed', award: 'awarded', cancel: 'cancelled' };

export const rfqStateDetails = (status: RfqStatus): FieldProblem[] => [{ path: 'status', message: `The request for quotes is ${status}` }];

/**
 * The pure rule: what `action` by `actor` does to an RFQ at `now` — its next status, or why it is
 * refused (`forbidden`: never this actor's move; `conflict`: its status at `now` refuses it). Closing is
 * due only once closesAt has passed.
 */
export function rfqMove(rfq: RfqState, action: RfqAction, actor: RfqActor, now: Date): { to: RfqStatus } | RfqRefusal {
  const rule = RULES[action];
  if (rule.by !== actor) return { refused: 'forbidden', message: `Only the ${rule.by === 'system' ? 'marketplace' : rule.by} can ${action === 'quote' ? 'quote on' : action} a request for quotes`, details: [] };
  const status = rfqStatusAt(rfq, now);
  if (action === 'close') {
    if (rfq.status !== 'open' || status !== 'closed') return { refused: 'conflict', message: `The request for quotes is ${status}: it is not due to close`, details: rfqStateDetails(status) };
    return { to: 'closed' };
  }
  if (!rule.from.includes(status)) {
    const when = action === 'quote' && status === 'closed' ? ` (it closed at ${rfq.closesAt})` : '';
    return { refused: 'conflict', message: `A request for quotes that is ${status}${when} cannot be ${VERBS[action]} (only when ${rule.from.join(' or ')})`, details: rfqStateDetails(status) };
  }
  return { to: rule.to };
}

/** Whether a seller's existing quote may be replaced: only while the RFQ is open, and only a quote that has not been decided. */
export function replaceable(quote: QuoteState): boolean {
  return quote.status === 'submitted' || quote.status === 'expired';
}

/** What a quote offers, and what it is checked against. */
export interface QuoteTerms {
  unitPrice: number;
  quantity: number;
  currency: string;
  leadTimeDays: number;
  validUntil: string;
}

export interface QuoteLimits {
  rfq: { currency: string; maxUnitPrice: number | null; closesAt: string };
  /** Units of the quoted product available now. */
  available: number;
  /** The quoted offer's smallest order. */
  minimum: number;
}

/**
 * The problems of a quote's terms (422, each on its field): another currency than the RFQ's, a unit
 * price above its cap, more units than the product has, fewer than its minimum order, or a validity that
 * has already ended.
 */
export function quoteProblems(terms: QuoteTerms, limits: QuoteLimits, now: Date): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const { rfq } = limits;
  if (terms.currency !== rfq.currency) problems.push({ path: 'offerId', message: `The offer is priced in ${terms.currency}; this request for quotes asks for ${rfq.currency}: quote an offer in ${rfq.currency}` });
  else if (rfq.maxUnitPrice !== null && terms.unitPrice > rfq.maxUnitPrice) {
    problems.push({ path: 'unitPrice', message: `Must be at most ${rfq.maxUnitPrice} (the request's maxUnitPrice, minor units of ${rfq.currency})` });
  }
  if (terms.quantity > limits.available) problems.push({ path: 'quantity', message: `Must be at most ${limits.available}, the units of the offer's product available now` });
  else if (terms.quantity < limits.minimum) problems.push({ path: 'quantity', message: `Must be at least ${limits.minimum}, the offer's minimum order` });
  if (Date.parse(terms.validUntil) <= now.getTime()) problems.push({ path: 'validUntil', message: 'Must be in the future: the buyer can award a quote only until it expires' });
  return problems;
}

/** The refusal of an award of a quote that is not awardable at `now` (expired, or already decided), else undefined. */
export function awardRefusal(quote: QuoteState, now: Date): RfqRefusal | undefined {
  const status = quoteStatusAt(quote, now);
  if (status === 'submitted') return undefined;
  const details = [{ path: 'quoteId', message: `The quote is ${status}${status === 'expired' ? ` (valid until ${quote.validUntil})` : ''}` }];
  return { refused: 'conflict', message: status === 'expired' ? `The quote expired at ${quote.validUntil}: it can no longer be awarded` : `The quote is ${status}: it cannot be awarded`, details };
}

/** A quote as the buyer compares it: its price, lead time and arrival, and whether it is still valid. */
export interface RankedQuote extends QuoteState {
  quoteId: string;
  unitPrice: number;
  leadTimeDays: number;
  updatedAt: string;
}

/**
 * Best first: quotes that can still be awarded before the others, then the lowest unit price, the
 * shortest lead time, the earliest submitted. A stable total order: equal quotes never swap.
 */
export function rankQuotes<Q extends RankedQuote>(quotes: readonly Q[], now: Date): Q[] {
  const live = (quote: Q) => (quoteStatusAt(quote, now) === 'submitted' || quote.status === 'accepted' ? 0 : 1);
  return [...quotes].sort(
    (a, b) =>
      live(a) - live(b) ||
      (a.status === 'accepted' ? -1 : 0) - (b.status === 'accepted' ? -1 : 0) ||
      a.unitPrice - b.unitPrice ||
      a.leadTimeDays - b.leadTimeDays ||
      (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : 0) ||
      (a.quoteId < b.quoteId ? -1 : a.quoteId > b.quoteId ? 1 : 0),
  );
}

/** What an award turns into a negotiation session: the RFQ's buyer, the quote's seller, offer and terms. */
export interface AwardInput {
  sessionId: string;
  rfq: { rfqId: string; buyerId: string };
  quote: { quoteId: string; sellerId: string; offerId: string; productId: string; productSku: string; currency: string; unitPrice: number; quantity: number; message: string | null; updatedAt: string };
  /** The quoted product's title at the award (null if it is gone): the session keeps it, as one begun by negotiating does. */
  title: string | null;
}

/**
 * The accepted negotiation session an award creates: the seller's quote is its opening proposal and
 * the buyer's award its acceptance, so create-order takes it like any accepted session.
 */
export function awardedSession(input: AwardInput, now: Date): NegotiationSession {
  const at = now.toISOString();
  const { quote, rfq } = input;
  const terms = { unitPrice: quote.unitPrice, quantity: quote.quantity };
  return {
    sessionId: input.sessionId,
    offerId: quote.offerId,
    productId: quote.productId,
    sku: quote.productSku,
    title: input.title,
    buyerId: rfq.buyerId,
    sellerId: quote.sellerId,
    status: 'accepted',
    currency: quote.currency,
    ...terms,
    turn: null,
    round: 1,
    maxRounds: MAX_ROUNDS,
    history: [
      { round: 1, by: 'seller', action: 'propose', ...terms, message: quote.message, automatic: false, at: quote.updatedAt },
      { round: 1, by: 'buyer', action: 'accept', ...terms, message: `Awarded from ${rfq.rfqId} (${quote.quoteId})`, automatic: false, at },
    ],
    expiresAt: null,
    acceptedAt: at,
    orderId: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * A quote's status as read with its RFQ: the award's quote is accepted, every other quote of an awarded
 * or cancelled RFQ declined (nothing rewrites them: the RFQ decides), else submitted until validUntil.
 */
export function quoteStatusIn(quote: QuoteState & { quoteId: string }, rfq: { status: RfqStatus; awardedQuoteId: string | null }, now: Date): QuoteStatus {
  if (rfq.awardedQuoteId !== null && quote.quoteId === rfq.awardedQuoteId) return 'accepted';
  if (rfq.status === 'awarded' || rfq.status === 'cancelled') return 'declined';
  return quoteStatusAt(quote, now);
}
