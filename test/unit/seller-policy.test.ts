// The seller's automatic policy as pure rules: the concession curves, the answer to a proposal, and
// what a buyer that probes can learn from the answers (test/support/floor-prober.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerProposal,
  askAt,
  effectiveStrategy,
  lastAnswerRound,
  marginCeiling,
  previousAsk,
  privateTarget,
  type Concession,
  type PolicyAnswer,
} from '../../shared/domain/seller-policy.ts';
import type { NegotiationStrategy } from '../../shared/schemas/catalog.ts';
import { consistentFloors, learnedWithin5Percent, type Seen } from '../support/floor-prober.ts';

const MAX_ROUNDS = 20;
const ANSWER_ROUNDS = Array.from({ length: MAX_ROUNDS / 2 }, (_, i) => 2 * (i + 1));
const CONCEDING = ['linear', 'boulware', 'conceder'] as const;

const concessionOf = (strategy: NegotiationStrategy, floor: number, target: number): Concession => (strategy === 'firm' ? { strategy } : { strategy, floor, target });
const asksOf = (concession: Concession, listPrice: number, maxRounds = MAX_ROUNDS) => {
  const rounds: number[] = [];
  for (let round = 2; round <= lastAnswerRound(maxRounds); round += 2) rounds.push(round);
  return rounds.map((round) => askAt(concession, listPrice, round, maxRounds));
};

/** A list price, a floor at or below it, an auto-accept price above the floor (or none), a strategy and the target's draw. */
const policyCase = fc
  .record({
    listPrice: fc.integer({ min: 1, max: 2_000_000 }),
    floorShare: fc.double({ min: 0, max: 1, noNaN: true }),
    autoAcceptShare: fc.option(fc.double({ min: 0, max: 1.5, noNaN: true }), { nil: undefined }),
    strategy: fc.constantFrom<NegotiationStrategy>('firm', 'linear', 'boulware', 'conceder'),
    draw: fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true }),
  })
  .map(({ listPrice, floorShare, autoAcceptShare, strategy, draw }) => {
    const floor = Math.floor(listPrice * floorShare);
    const autoAccept = autoAcceptShare === undefined ? undefined : floor + 1 + Math.floor((listPrice - floor) * autoAcceptShare);
    const target = privateTarget(floor, draw, autoAccept);
    return { listPrice, floor, autoAccept, strategy, target, concession: concessionOf(strategy, floor, target) };
  });

describe('concession curves', () => {
  it('ask what docs/decisions/concession-curves.md shows for a 100.00 list price and an 80.00 floor', () => {
    const atTarget = (strategy: NegotiationStrategy, target: number) => asksOf(concessionOf(strategy, 8000, target), 10_000);
    // The target at the bottom of its range (just above the floor), in the middle and at the top (floor + 20 %).
    expect(atTarget('linear', 8000.000001)).toEqual([10000, 9778, 9556, 9334, 9112, 8889, 8667, 8445, 8223, 8000]);
    expect(atTarget('linear', 8800)).toEqual([10000, 9867, 9734, 9600, 9467, 9334, 9200, 9067, 8934, 8000]);
    expect(atTarget('linear', 9600)).toEqual([10000, 9956, 9912, 9867, 9823, 9778, 9734, 9689, 9645, 8000]);
    expect(atTarget('boulware', 8000.000001)).toEqual([10000, 9998, 9979, 9926, 9825, 9658, 9408, 9059, 8596, 8000]);
    expect(atTarget('conceder', 8000.000001)).toEqual([10000, 9039, 8789, 8614, 8474, 8356, 8253, 8161, 8078, 8000]);
    expect(atTarget('boulware', 9600)).toEqual([10000, 10000, 9996, 9986, 9965, 9932, 9882, 9812, 9720, 8000]);
    expect(atTarget('conceder', 9600)).toEqual([10000, 9808, 9758, 9723, 9695, 9672, 9651, 9633, 9616, 8000]);
    expect(atTarget('firm', 8800)).toEqual(Array.from({ length: 10 }, () => 10000));
    expect(marginCeiling(8000)).toBe(1600);
    expect(marginCeiling(8000, 8300)).toBe(300);
    expect(marginCeiling(10)).toBe(6);
  });

  it('start at the list price, never rise, never go below the floor, and reach it only at the last answer (property)', () => {
    fc.assert(
      fc.property(policyCase, fc.integer({ min: 2, max: 40 }), ({ listPrice, floor, strategy, concession }, maxRounds) => {
        const asks = asksOf(concession, listPrice, maxRounds);
        // (With a single answer, that answer is the last.)
        if (asks.length > 1) expect(asks[0]).toBe(listPrice);
        for (const [i, ask] of asks.entries()) {
          expect(Number.isInteger(ask)).toBe(true);
          expect(ask).toBeLessThanOrEqual(listPrice);
          expect(ask).toBeGreaterThanOrEqual(Math.min(floor, listPrice));
          if (i > 0) expect(ask).toBeLessThanOrEqual(asks[i - 1] as number);
          const last = i === asks.length - 1;
          if (strategy === 'firm') expect(ask).toBe(listPrice);
          else if (listPrice > floor) expect(ask === floor).toBe(last);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('order the strategies: boulware holds at least as high as linear, linear as conceder, at every answer (property)', () => {
    fc.assert(
      fc.property(policyCase, ({ listPrice, floor, target }) => {
        const [boulware, linear, conceder] = (['boulware', 'linear', 'conceder'] as const).map((strategy) => asksOf({ strategy, floor, target }, listPrice));
        for (let i = 0; i < ANSWER_ROUNDS.length; i++) {
          expect(boulware?.[i]).toBeGreaterThanOrEqual(linear?.[i] as number);
          expect(linear?.[i]).toBeGreaterThanOrEqual(conceder?.[i] as number);
        }
      }),
    );
  });

  it('keep the private target above the floor, within a fifth of it (at least 6 units) and at most the auto-accept price', () => {
    fc.assert(
      fc.property(policyCase, ({ floor, autoAccept, target }) => {
        expect(target).toBeGreaterThan(floor);
        expect(target).toBeLessThanOrEqual(floor + Math.max(floor / 5, 6) + 1e-9);
        if (autoAccept !== undefined) expect(target).toBeLessThanOrEqual(autoAccept);
      }),
    );
  });

  it('hold a list price at or under the floor (a volume tier below it) at every answer', () => {
    for (const strategy of CONCEDING) expect(asksOf({ strategy, floor: 900, target: 950 }, 850)).toEqual(Array.from({ length: 10 }, () => 850));
  });

  it('do not let rounding reach the floor early on a range of a few minor units, in any currency exponent', () => {
    for (const strategy of CONCEDING) {
      for (const [listPrice, floor] of [[10_000, 9_997], [5, 3], [2, 1], [25_000_000, 24_999_999]] as const) {
        const asks = asksOf({ strategy, floor, target: privateTarget(floor, 0.01) }, listPrice);
        expect(asks.slice(0, -1).every((ask) => ask > floor)).toBe(true);
        expect(asks.at(-1)).toBe(floor);
      }
    }
  });

  it('answer for an offer by the strategy set, or linear when only a floor is set; a conceding strategy needs a floor', () => {
    expect(effectiveStrategy(null, true)).toBe('linear');
    expect(effectiveStrategy(undefined, false)).toBeNull();
    expect(effectiveStrategy('boulware', true)).toBe('boulware');
    expect(effectiveStrategy('boulware', false)).toBeNull();
    expect(effectiveStrategy('firm', false)).toBe('firm');
  });
});

describe('answering a proposal', () => {
  it('accepts at or above the auto-accept price at once, up to the list price, at any round, whatever the strategy (property)', () => {
    fc.assert(
      fc.property(policyCase, fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 9 }), ({ listPrice, autoAccept, concession }, above, turn) => {
        fc.pre(autoAccept !== undefined && autoAccept <= listPrice);
        const answer = answerProposal({ proposal: Math.min(autoAccept + above, listPrice), round: 2 * turn + 1, maxRounds: MAX_ROUNDS, listPrice, concession, autoAccept });
        expect(answer).toEqual({ action: 'accept' });
      }),
    );
  });

  it('never accepts more than the list price, whatever the auto-accept price, the strategy or the round; answers it with its ask when it has one (property)', () => {
    fc.assert(
      fc.property(policyCase, fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 9 }), fc.option(fc.integer({ min: 1, max: 2_000_000 }), { nil: undefined }), ({ listPrice, concession }, above, turn, autoAccept) => {
        const round = 2 * turn + 1;
        const answer = answerProposal({ proposal: listPrice + above, round, maxRounds: MAX_ROUNDS, listPrice, concession, autoAccept });
        expect(answer).toEqual({ action: 'counter', unitPrice: askAt(concession, listPrice, round + 1, MAX_ROUNDS) });
        expect(answerProposal({ proposal: listPrice + above, round, maxRounds: MAX_ROUNDS, listPrice, concession: null, autoAccept })).toBeUndefined();
      }),
    );
  });

  it('counters every proposal below the ask with the same ask, whatever was proposed; accepts one at or above it (property)', () => {
    fc.assert(
      fc.property(policyCase, fc.integer({ min: 0, max: 9 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), ({ listPrice, autoAccept, concession }, turn, a, b) => {
        const round = 2 * turn + 1;
        const ask = askAt(concession, listPrice, round + 1, MAX_ROUNDS);
        const ceiling = Math.min(ask, autoAccept ?? ask);
        fc.pre(ceiling > 0);
        const answers = [a, b].map((share) => answerProposal({ proposal: Math.floor((ceiling - 1) * share), round, maxRounds: MAX_ROUNDS, listPrice, concession, autoAccept }));
        expect(answers[0]).toEqual({ action: 'counter', unitPrice: ask });
        expect(answers[1]).toEqual(answers[0]);
        expect(answerProposal({ proposal: ask, round, maxRounds: MAX_ROUNDS, listPrice, concession, autoAccept })).toEqual({ action: 'accept' });
      }),
    );
  });

  it('never asks more than its previous ask, and leaves the seller’s agent to answer without a policy or a round to answer in', () => {
    const concession: Concession = { strategy: 'linear', floor: 8000, target: 8400 };
    expect(answerProposal({ proposal: 5000, round: 5, maxRounds: MAX_ROUNDS, listPrice: 10_000, concession, previousAsk: 9000 })).toEqual({ action: 'counter', unitPrice: 9000 });
    expect(answerProposal({ proposal: 5000, round: 5, maxRounds: MAX_ROUNDS, listPrice: 10_000, concession: null, autoAccept: 9500 })).toBeUndefined();
    expect(answerProposal({ proposal: 5000, round: 20, maxRounds: MAX_ROUNDS, listPrice: 10_000, concession })).toBeUndefined();
    expect(answerProposal({ proposal: 9600, round: 5, maxRounds: MAX_ROUNDS, listPrice: 10_000, concession: null, autoAccept: 9500 })).toEqual({ action: 'accept' });
  });
});

type Buyer = (round: number, lastAsk: number | undefined) => number;

/** A session of one buyer against the policy until it is accepted or the rounds run out; what the buyer saw after each answer. */
function probe(policy: { listPrice: number; concession: Concession; autoAccept: number | undefined }, buyer: Buyer): Seen[][] {
  const seen: Seen[] = [];
  const after: Seen[][] = [];
  let lastAsk: number | undefined;
  for (let round = 1; round < MAX_ROUNDS; round += 2) {
    const proposal = buyer(round, lastAsk);
    const answer = answerProposal({ proposal, round, maxRounds: MAX_ROUNDS, listPrice: policy.listPrice, concession: policy.concession, autoAccept: policy.autoAccept, previousAsk: lastAsk }) as PolicyAnswer;
    seen.push(answer.action === 'accept' ? { round: round + 1, accepted: proposal } : { round: round + 1, ask: answer.unitPrice });
    after.push([...seen]);
    if (answer.action === 'accept') break;
    lastAsk = answer.unitPrice;
  }
  return after;
}

const BUYERS: Record<string, Buyer> = {
  'lowballs every round': () => 1,
  'walks down from half the list price': (round, lastAsk) => Math.floor(((lastAsk ?? 2) / 2) * (1 + round / 40)),
  'bids just under the last ask': (_round, lastAsk) => (lastAsk === undefined ? 1 : lastAsk - 1),
};

describe('a whole session of automatic answers', () => {
  /**
   * A session the policy answers at every even round: any buyer proposals and quantities (volume
   * tiers: more units, a lower list price, all above the floor), and the private target drawn anew
   * (a new stack secret) and the strategy changed between answers.
   */
  const sessionCase = fc
    .record({
      floor: fc.integer({ min: 1, max: 1_000_000 }),
      tierSteps: fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 3, maxLength: 3 }),
      autoAcceptShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      answers: fc.array(
        fc.record({
          quantity: fc.constantFrom(1, 10, 100),
          // Up to the list price: buyers cannot propose more (trade-terms.ts, overListProblem).
          proposalShare: fc.double({ min: 0, max: 1, noNaN: true }),
          strategy: fc.constantFrom<NegotiationStrategy>('firm', 'linear', 'boulware', 'conceder'),
          draw: fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true }),
        }),
        { minLength: MAX_ROUNDS / 2, maxLength: MAX_ROUNDS / 2 },
      ),
    })
    .map(({ floor, tierSteps, autoAcceptShare, answers }) => {
      // List prices for 100, 10 and 1 units: each at least one unit above the floor, none lower for fewer units.
      const [p100, p10, p1] = tierSteps.reduce<number[]>((prices, step) => [...prices, (prices.at(-1) ?? floor) + 1 + step], []) as [number, number, number];
      const listFor = (quantity: number) => (quantity >= 100 ? p100 : quantity >= 10 ? p10 : p1);
      const autoAccept = autoAcceptShare === undefined ? undefined : floor + 1 + Math.floor((p1 - floor) * autoAcceptShare);
      return { floor, listFor, autoAccept, answers };
    });

  it('never asks below the floor, names the floor only at the last answer, never exceeds the list price, and never rises while the quantity does not go down (property)', () => {
    fc.assert(
      fc.property(sessionCase, ({ floor, listFor, autoAccept, answers }) => {
        const history: { by: string; action: string; unitPrice: number; quantity: number }[] = [];
        for (const [i, { quantity, proposalShare, strategy, draw }] of answers.entries()) {
          const round = 2 * i + 1;
          const listPrice = listFor(quantity);
          const proposal = Math.floor(listPrice * proposalShare);
          history.push({ by: 'buyer', action: round === 1 ? 'propose' : 'counter', unitPrice: proposal, quantity });
          const concession = concessionOf(strategy, floor, privateTarget(floor, draw, autoAccept));
          const answer = answerProposal({ proposal, round, maxRounds: MAX_ROUNDS, listPrice, concession, autoAccept, previousAsk: previousAsk(history, quantity) });
          expect(answer).toBeDefined();
          if (answer?.action !== 'counter') break;
          const ask = answer.unitPrice;
          expect(Number.isInteger(ask)).toBe(true);
          expect(ask).toBeGreaterThan(proposal);
          expect(ask).toBeLessThanOrEqual(listPrice);
          expect(ask).toBeGreaterThanOrEqual(floor);
          if (round + 1 < lastAnswerRound(MAX_ROUNDS)) expect(ask).toBeGreaterThan(floor);
          // While the quantity does not go down, asks never rise (an ask made for a volume is not owed for fewer units).
          const last = history.findLast((move) => move.by === 'seller');
          if (last && quantity >= last.quantity) expect(ask).toBeLessThanOrEqual(last.unitPrice);
          history.push({ by: 'seller', action: 'counter', unitPrice: ask, quantity });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the previous ask', () => {
  const move = (by: string, action: string, unitPrice: number, quantity: number) => ({ by, action, unitPrice, quantity });
  it('is the seller’s last counter while the quantity has not gone down since', () => {
    const history = [move('buyer', 'propose', 500, 100), move('seller', 'counter', 950, 100), move('buyer', 'counter', 600, 100), move('seller', 'counter', 920, 100)];
    expect(previousAsk(history, 100)).toBe(920);
    expect(previousAsk([...history, move('buyer', 'counter', 600, 150)], 150)).toBe(920);
    // Fewer units: the ask made for more is not owed.
    expect(previousAsk([...history, move('buyer', 'counter', 600, 50)], 50)).toBeUndefined();
    expect(previousAsk([move('buyer', 'propose', 500, 100)], 100)).toBeUndefined();
  });
});

describe('a buyer that probes', () => {
  const probeCase = fc
    .record({
      listPrice: fc.integer({ min: 20, max: 30_000 }),
      floorShare: fc.double({ min: 0.2, max: 0.995, noNaN: true }),
      autoAccept: fc.option(fc.double({ min: 0.001, max: 1, noNaN: true }), { nil: undefined }),
      strategy: fc.constantFrom<NegotiationStrategy>('linear', 'boulware', 'conceder', 'firm'),
      draw: fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true }),
      buyer: fc.constantFrom(...Object.keys(BUYERS)),
    })
    .map(({ listPrice, floorShare, autoAccept, strategy, draw, buyer }) => {
      const floor = Math.max(1, Math.floor(listPrice * floorShare));
      const autoAcceptPrice = autoAccept === undefined ? undefined : floor + Math.max(1, Math.floor((listPrice - floor) * autoAccept));
      return { listPrice, floor, autoAccept: autoAcceptPrice, strategy, buyer, concession: concessionOf(strategy, floor, privateTarget(floor, draw, autoAcceptPrice)) };
    });

  it('learns the floor to within 5 % in no fewer than the session’s rounds, knowing the curves and the auto-accept price (property)', () => {
    fc.assert(
      fc.property(probeCase, ({ listPrice, floor, autoAccept, strategy, buyer, concession }) => {
        const after = probe({ listPrice, concession, autoAccept }, BUYERS[buyer] as Buyer);
        const knowledge = (seen: Seen[]) => ({ listPrice, maxRounds: MAX_ROUNDS, autoAccept, seen });
        // Knowledge only grows, so what it knows before the last answer bounds what it knew at any earlier one.
        const beforeLast = after.filter((seen) => (seen.at(-1) as Seen).round < lastAnswerRound(MAX_ROUNDS)).at(-1) ?? [];
        expect(learnedWithin5Percent(knowledge(beforeLast), floor)).toBe(false);
        const whole = after.at(-1) as Seen[];
        const reachedLast = (whole.at(-1) as Seen).round === lastAnswerRound(MAX_ROUNDS) && 'ask' in (whole.at(-1) as Seen);
        // Only the last answer names the floor (firm never does).
        if (reachedLast && strategy !== 'firm') expect(consistentFloors(knowledge(whole))).toEqual([floor]);
      }),
      { numRuns: 100 },
    );
  });

  it('learns nothing from start-and-reject pairs: the first answer is the list price whatever is proposed, until a proposal is accepted', () => {
    const listPrice = 10_000;
    for (const strategy of CONCEDING) {
      const concession = concessionOf(strategy, 8000, privateTarget(8000, 0.5, 9000));
      const proposals = Array.from({ length: 101 }, (_, i) => i * 100);
      const answers = proposals.map((proposal) => answerProposal({ proposal, round: 1, maxRounds: MAX_ROUNDS, listPrice, concession, autoAccept: 9000 }));
      // Accepted exactly from the auto-accept price on: a binary search finds that price, which bounds the floor from above only.
      expect(answers.map((answer, i) => (answer?.action === 'accept') === ((proposals[i] as number) >= 9000))).not.toContain(false);
      expect(answers.filter((answer) => answer?.action === 'counter')).toEqual(Array.from({ length: 90 }, () => ({ action: 'counter', unitPrice: listPrice })));
    }
  });

  it('would pin the floor down after two conceding answers if the target were the floor itself (the prober is not toothless)', () => {
    const listPrice = 10_000;
    const floor = 8000;
    const concession = concessionOf('linear', floor, floor + 1e-9);
    const after = probe({ listPrice, concession, autoAccept: undefined }, () => 1);
    const naive = { listPrice, maxRounds: MAX_ROUNDS, seen: after[2] as Seen[], margin: () => 1e-9 };
    expect(learnedWithin5Percent(naive, floor)).toBe(true);
    expect(learnedWithin5Percent({ ...naive, margin: undefined }, floor)).toBe(false);
  });
});
