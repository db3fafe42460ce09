// The seller's automatic negotiation policy (contract round 3, "Seller policy"), as pure rules.
//
// The policy answers every buyer proposal it does not accept with an ask that depends on time only —
// the round of the answer — never on what the buyer proposed: a buyer learns nothing from where
// answers start or stop, and probing with proposals (a binary search over start-and-reject pairs, a
// walk-down) tells it only whether it was accepted. Asks follow Faratin's time-dependent tactics,
//   ask(x) = list − (list − target) · x^(1/β),   x = 0 at the first answer, 1 at the last,
// from the list price toward a private target a little above the floor; the floor itself is asked
// only at the session's last answer. The target hides the floor from a buyer who knows these curves:
// every ask before the last depends on the floor only through the target, which lies anywhere in
// (floor, floor + margin] by a draw the buyer cannot know, so the asks bound the floor from above
// and hardly from below (docs/decisions/concession-curves.md: the curves and a table of asks;
// docs/decisions/private-concession-target.md: what a buyer learns).
import type { NegotiationStrategy } from '../schemas/catalog.ts';

/** The strategy of an offer that has a floor but names none. */
export const DEFAULT_NEGOTIATION_STRATEGY: NegotiationStrategy = 'linear';

/** β of each conceding tactic: below 1 holds near the list price until late, above 1 concedes early. */
export const CONCESSION_BETA: Readonly<Record<Exclude<NegotiationStrategy, 'firm'>, number>> = { boulware: 1 / 3, linear: 1, conceder: 3 };

/**
 * The margin above the floor the private target may lie in: a fifth of the floor, and never less than
 * this many minor units. A buyer who knows the target learns only that the floor lies in
 * [target / 1.2, target): about 17 % wide, so no guess of it is sure to be within 5 %.
 */
export const MARGIN_SHARE = 0.2;
export const MIN_MARGIN_UNITS = 6;

/**
 * The strategy that answers for an offer: the one set, or the default when a floor is set. A
 * conceding strategy needs a floor to concede toward (feeds refuse one without), so without a floor
 * only `firm` answers; null: no automatic counters, the seller's agent answers.
 */
export function effectiveStrategy(strategy: NegotiationStrategy | null | undefined, hasFloor: boolean): NegotiationStrategy | null {
  if (strategy) return strategy === 'firm' || hasFloor ? strategy : null;
  return hasFloor ? DEFAULT_NEGOTIATION_STRATEGY : null;
}

/** The share of the way from the list price to the target conceded at time x ∈ [0, 1]: x^(1/β); firm concedes nothing. */
export function concessionShare(strategy: NegotiationStrategy, x: number): number {
  if (strategy === 'firm') return 0;
  const time = Math.min(1, Math.max(0, x));
  return time ** (1 / CONCESSION_BETA[strategy]);
}

/** The seller answers at the even rounds (the buyer opens at round 1); this is the last it can answer at. */
export function lastAnswerRound(maxRounds: number): number {
  return maxRounds - (maxRounds % 2);
}

/** Where an answer at `round` lies between the first answer (round 2: 0) and the last (1). */
export function answerTime(round: number, maxRounds: number): number {
  const last = lastAnswerRound(maxRounds);
  if (last <= 2) return 1;
  return Math.min(1, Math.max(0, (round - 2) / (last - 2)));
}

/**
 * How far above the floor the private target may lie: a fifth of the floor (at least 6 minor units),
 * but not beyond the auto-accept price — a buyer can find that price (it is accepted at once) and
 * would otherwise learn that the floor lies within the margin below it.
 */
export function marginCeiling(floor: number, autoAccept?: number): number {
  const margin = Math.max(floor * MARGIN_SHARE, MIN_MARGIN_UNITS);
  return autoAccept !== undefined && autoAccept > floor ? Math.min(margin, autoAccept - floor) : margin;
}

/** The smallest draw: keeps the target a representable distance above the floor. */
const MIN_DRAW = 2 ** -32;

/** The private target the asks approach before the last answer: floor + draw · margin, draw ∈ (0, 1] (a real number, not rounded). */
export function privateTarget(floor: number, draw: number, autoAccept?: number): number {
  return floor + Math.min(1, Math.max(MIN_DRAW, draw)) * marginCeiling(floor, autoAccept);
}

/** A conceding policy with what it concedes toward; `firm` needs neither. */
export type Concession = { strategy: 'firm' } | { strategy: Exclude<NegotiationStrategy, 'firm'>; floor: number; target: number };

/**
 * The ask of an automatic answer at `round`, in whole minor units. Never above the list price for the
 * quantity; never below the floor; above the floor at every answer but the last, which asks exactly
 * the floor (firm: the list price throughout). Rounded up, in the seller's favour. A list price at or
 * below the floor (a volume tier under it) is held throughout.
 */
export function askAt(concession: Concession, listPrice: number, round: number, maxRounds: number): number {
  if (concession.strategy === 'firm' || listPrice <= concession.floor) return listPrice;
  if (round >= lastAnswerRound(maxRounds)) return concession.floor;
  if (concession.target >= listPrice) return listPrice;
  const exact = listPrice - (listPrice - concession.target) * concessionShare(concession.strategy, answerTime(round, maxRounds));
  // The target is above the floor, so this bound only guards against floating-point error.
  return Math.min(listPrice, Math.max(concession.floor + 1, Math.ceil(exact)));
}

/**
 * The seller's last ask in a session (its last counter), if the quantity on the table is no smaller
 * than the one it was made for: the policy never asks more for as many units or more. (For fewer
 * units the offer's price may be higher, and an ask made for a volume is not owed for less.)
 */
export function previousAsk(history: readonly { by: string; action: string; unitPrice: number; quantity: number }[], quantity: number): number | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const move = history[i];
    if (move?.by === 'seller' && (move.action === 'counter' || move.action === 'propose')) return quantity >= move.quantity ? move.unitPrice : undefined;
  }
  return undefined;
}

export type PolicyAnswer = { action: 'accept' } | { action: 'counter'; unitPrice: number };

export interface ProposalContext {
  /** The buyer's unit price and the round it was proposed at. */
  proposal: number;
  round: number;
  maxRounds: number;
  /** The offer's price for the quantity on the table. */
  listPrice: number;
  /** Null: no automatic counters (the seller's agent answers what is not auto-accepted). */
  concession: Concession | null;
  autoAccept?: number | undefined;
  /** The seller's last ask in this session when the quantity has not gone down since: asks never rise. */
  previousAsk?: number | undefined;
}

/**
 * The policy's answer to a buyer proposal: accept at or above the auto-accept price or the ask it
 * would make now; otherwise counter with that ask. Undefined when the policy has nothing to say (no
 * concession set and not auto-accepted), or no round is left for an answer. It never accepts more than
 * the list price (contract §5.2; buyers cannot propose more, and an auto-accept price set above the list
 * is never reached): a proposal above it is answered with the ask, or left to the seller's agent.
 */
export function answerProposal(context: ProposalContext): PolicyAnswer | undefined {
  const withinList = context.proposal <= context.listPrice;
  if (withinList && context.autoAccept !== undefined && context.proposal >= context.autoAccept) return { action: 'accept' };
  if (!context.concession) return undefined;
  const round = context.round + 1;
  if (round > context.maxRounds) return undefined;
  const curve = askAt(context.concession, context.listPrice, round, context.maxRounds);
  const ask = context.previousAsk === undefined ? curve : Math.min(curve, context.previousAsk);
  return withinList && context.proposal >= ask ? { action: 'accept' } : { action: 'counter', unitPrice: ask };
}
