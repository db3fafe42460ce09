// The sandbox's house buyers negotiate by a strategy, as pure rules: the mirror of the seller's
// concession curves (seller-policy.ts). A house buyer opens below the list price and, at each of its
// answers, bids along Faratin's time-dependent curve from its opening toward its limit, the offer's
// list price for the quantity (a buyer never offers more than a seller asks for nothing):
//   bid(x) = opening + (limit − opening) · x^(1/β),   x = 0 at its opening, 1 at its last answer,
// with the same β as the seller's tactics (boulware holds out, conceder gives in early, linear in
// between); `firm` never moves from its opening. It accepts an ask at or below the bid it would make,
// counters with that bid otherwise, and at its last answer accepts an ask within its limit or walks
// away (rejects). A seller testing its own agent meets each behaviour on demand.
import type { NegotiationStrategy } from '../schemas/catalog.ts';
import { CONCESSION_BETA } from './seller-policy.ts';

/** Where a house buyer opens when the caller names no price: this share of the list price. */
export const HOUSE_BUYER_OPENING_SHARE = 0.8;

/** The house buyer's opening bid for a list price: 80 % of it, in whole minor units, at least 1. */
export function houseBuyerOpening(listPrice: number): number {
  return Math.max(1, Math.min(listPrice, Math.floor(listPrice * HOUSE_BUYER_OPENING_SHARE)));
}

/** The buyer moves at the odd rounds (it opens at round 1); this is the last it can answer at. */
export function lastBuyerRound(maxRounds: number): number {
  return maxRounds % 2 === 1 ? maxRounds : maxRounds - 1;
}

/** Where a buyer's move at `round` lies between its opening (round 1: 0) and its last answer (1). */
export function buyerAnswerTime(round: number, maxRounds: number): number {
  const last = lastBuyerRound(maxRounds);
  if (last <= 1) return 1;
  return Math.min(1, Math.max(0, (round - 1) / (last - 1)));
}

/** The bid at an answer in `round`: from the opening toward the limit by the strategy's curve, rounded down (in the buyer's favour). */
export function bidAt(strategy: NegotiationStrategy, opening: number, limit: number, round: number, maxRounds: number): number {
  if (strategy === 'firm' || limit <= opening) return Math.min(opening, limit);
  const share = buyerAnswerTime(round, maxRounds) ** (1 / CONCESSION_BETA[strategy]);
  return Math.min(limit, Math.max(opening, Math.floor(opening + (limit - opening) * share)));
}

export type HouseBuyerAnswer = { action: 'accept' } | { action: 'counter'; unitPrice: number } | { action: 'reject' };

export interface HouseBuyerContext {
  strategy: NegotiationStrategy;
  /** The buyer's opening unit price (the session's first move). */
  opening: number;
  /** The offer's list price for the quantity on the table: the most the buyer pays. */
  limit: number;
  /** The seller's ask: the unit price on the table. */
  ask: number;
  /** The session's round now (the seller's last move); the buyer's answer is the next. */
  round: number;
  maxRounds: number;
}

/**
 * The house buyer's answer to the seller's ask: accept an ask at or below its bid for this round;
 * counter with that bid; at its last answer (no round left for another bid), accept an ask within its
 * limit or reject.
 */
export function answerAsk(context: HouseBuyerContext): HouseBuyerAnswer {
  const round = context.round + 1;
  const last = round >= lastBuyerRound(context.maxRounds) || round > context.maxRounds;
  if (last) return context.ask <= (context.strategy === 'firm' ? context.opening : context.limit) ? { action: 'accept' } : { action: 'reject' };
  const bid = bidAt(context.strategy, context.opening, context.limit, round, context.maxRounds);
  if (context.ask <= bid) return { action: 'accept' };
  return { action: 'counter', unitPrice: bid };
}
