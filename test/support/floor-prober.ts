// A buyer that knows everything about the seller's policy but its secrets (the floor, the strategy,
// where the private target lies) and works out which floors are consistent with what it saw: the
// seller's automatic counters, and proposals the policy accepted. "Learning the floor to within 5 %"
// means: the buyer can name a price sure to be within 5 % of the floor (the middle of the consistent
// floors, when they span at most a tenth of it).
import type { NegotiationStrategy } from '../../shared/schemas/catalog.ts';
import { answerTime, concessionShare, lastAnswerRound, marginCeiling } from '../../shared/domain/seller-policy.ts';

export type Seen =
  /** The policy countered with this ask at this round. */
  | { round: number; ask: number }
  /** The policy accepted this proposal, made the round before. */
  | { round: number; accepted: number };

export interface BuyerKnowledge {
  /** The offer's price for the quantity, and the session's round limit. */
  listPrice: number;
  maxRounds: number;
  /** The auto-accept price, if the offer has one: granted to the buyer (it can find it by proposing). */
  autoAccept?: number | undefined;
  seen: readonly Seen[];
  /** How far above the floor the buyer believes the target may lie (default: the policy's margin). */
  margin?: (floor: number, autoAccept?: number) => number;
}

const STRATEGIES: readonly NegotiationStrategy[] = ['firm', 'linear', 'boulware', 'conceder'];
/** Widening of each derived bound, so that floating-point rounding never excludes the truth. */
const SLACK = 1e-6;

/** Whether a floor, with some strategy and some target, would have made the policy answer as it did. */
function consistent(floor: number, strategy: NegotiationStrategy, knowledge: BuyerKnowledge): boolean {
  const { listPrice, maxRounds, autoAccept } = knowledge;
  if (autoAccept !== undefined && floor > autoAccept) return false;
  const last = lastAnswerRound(maxRounds);
  // The target lies in (low, high].
  let low = floor;
  let high = floor + (knowledge.margin ?? marginCeiling)(floor, autoAccept);
  for (const seen of knowledge.seen) {
    const belowAutoAccept = 'accepted' in seen && (autoAccept === undefined || seen.accepted < autoAccept);
    if ('accepted' in seen && !belowAutoAccept) continue; // accepted for the auto-accept price: nothing about the floor
    const share = strategy === 'firm' || listPrice <= floor ? 0 : concessionShare(strategy, answerTime(seen.round, maxRounds));
    if (strategy !== 'firm' && listPrice > floor && seen.round >= last) {
      // The last answer asks the floor itself.
      if ('ask' in seen ? seen.ask !== floor : seen.accepted < floor) return false;
      continue;
    }
    if (share === 0) {
      if ('ask' in seen ? seen.ask !== listPrice : seen.accepted < listPrice) return false;
      continue;
    }
    // ask = ceil(list − (list − target) · share), above the floor, at most the list price.
    if ('ask' in seen) {
      if (seen.ask <= floor || seen.ask > listPrice) return false;
      low = Math.max(low, listPrice - (listPrice - seen.ask + 1) / share - SLACK);
      if (seen.ask < listPrice) high = Math.min(high, listPrice - (listPrice - seen.ask) / share + SLACK);
    } else {
      // Accepted below the auto-accept price: the ask was at most the proposal.
      if (seen.accepted <= floor) return false;
      if (seen.accepted < listPrice) high = Math.min(high, listPrice - (listPrice - seen.accepted) / share + SLACK);
    }
    if (low >= high) return false;
  }
  return true;
}

/** Every whole floor from 0 to the list price (and the auto-accept price) consistent with what the buyer saw. */
export function consistentFloors(knowledge: BuyerKnowledge): number[] {
  const floors: number[] = [];
  const top = Math.min(knowledge.listPrice, knowledge.autoAccept ?? knowledge.listPrice);
  for (let floor = 0; floor <= top; floor++) if (STRATEGIES.some((strategy) => consistent(floor, strategy, knowledge))) floors.push(floor);
  return floors;
}

/** Whether the buyer knows the floor to within 5 %: the middle of the consistent floors is within 5 % of every one of them, the true one included. */
export function learnedWithin5Percent(knowledge: BuyerKnowledge, trueFloor: number): boolean {
  const floors = consistentFloors(knowledge);
  if (!floors.includes(trueFloor)) throw new Error(`The prober ruled out the true floor ${trueFloor}: its reasoning is wrong`);
  const lowest = floors[0] as number;
  const highest = floors.at(-1) as number;
  return (highest - lowest) / 2 <= 0.05 * trueFloor;
}
