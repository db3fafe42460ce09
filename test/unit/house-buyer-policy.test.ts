// The sandbox house buyers' strategies as pure rules: bids between the opening and the list price,
// never falling, conceding as each strategy says; answers that accept exactly the asks within the bid,
// and walk away at the last answer only above the limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerAsk, bidAt, buyerAnswerTime, houseBuyerOpening, lastBuyerRound } from '../../shared/domain/house-buyer-policy.ts';
import { NEGOTIATION_STRATEGIES } from '../../shared/schemas/catalog.ts';

const MAX_ROUNDS = 20;
const BUYER_ROUNDS = Array.from({ length: 9 }, (_, i) => 3 + 2 * i); // 3, 5, … 19

/** An opening at or below the list price, and a strategy. */
const terms = fc
  .record({ limit: fc.integer({ min: 1, max: 1_000_000 }), share: fc.double({ min: 0, max: 1, noNaN: true }), strategy: fc.constantFrom(...NEGOTIATION_STRATEGIES) })
  .map(({ limit, share, strategy }) => ({ limit, opening: Math.max(1, Math.floor(limit * share)), strategy }));

describe('house buyer bids', () => {
  it('open at 80 % of the list price, at least 1 and never above it', () => {
    expect(houseBuyerOpening(1000)).toBe(800);
    expect(houseBuyerOpening(1)).toBe(1);
    expect(houseBuyerOpening(7)).toBe(5);
  });

  it('lie between the opening and the limit, and never fall from one answer to the next', () => {
    fc.assert(
      fc.property(terms, ({ limit, opening, strategy }) => {
        const bids = BUYER_ROUNDS.map((round) => bidAt(strategy, opening, limit, round, MAX_ROUNDS));
        for (const bid of bids) {
          expect(bid).toBeGreaterThanOrEqual(Math.min(opening, limit));
          expect(bid).toBeLessThanOrEqual(limit);
        }
        for (let i = 1; i < bids.length; i++) expect(bids[i]).toBeGreaterThanOrEqual(bids[i - 1]!);
      }),
    );
  });

  it('concede as their strategies say: firm never, the conceder early, boulware late, linear evenly; all reach the limit at the last answer', () => {
    const at = (strategy: (typeof NEGOTIATION_STRATEGIES)[number], round: number) => bidAt(strategy, 800, 1000, round, MAX_ROUNDS);
    expect(BUYER_ROUNDS.map((round) => at('firm', round))).toEqual(BUYER_ROUNDS.map(() => 800));
    expect(at('conceder', 3)).toBeGreaterThan(at('linear', 3));
    expect(at('linear', 3)).toBeGreaterThan(at('boulware', 3));
    expect(at('linear', 11)).toBe(800 + Math.floor(200 * buyerAnswerTime(11, MAX_ROUNDS)));
    for (const strategy of ['linear', 'boulware', 'conceder'] as const) expect(at(strategy, lastBuyerRound(MAX_ROUNDS))).toBe(1000);
  });
});

describe('house buyer answers', () => {
  it('accept an ask at or below the bid of the answer’s round, and counter the rest with that bid', () => {
    fc.assert(
      fc.property(terms, fc.integer({ min: 1, max: 2_000_000 }), fc.constantFrom(...BUYER_ROUNDS.slice(0, -1)), ({ limit, opening, strategy }, ask, answerRound) => {
        const answer = answerAsk({ strategy, opening, limit, ask, round: answerRound - 1, maxRounds: MAX_ROUNDS });
        const bid = bidAt(strategy, opening, limit, answerRound, MAX_ROUNDS);
        expect(answer).toEqual(ask <= bid ? { action: 'accept' } : { action: 'counter', unitPrice: bid });
      }),
    );
  });

  it('at the last answer accept within the limit (firm: within its opening) and reject above it, never counter', () => {
    fc.assert(
      fc.property(terms, fc.integer({ min: 1, max: 2_000_000 }), ({ limit, opening, strategy }, ask) => {
        const answer = answerAsk({ strategy, opening, limit, ask, round: lastBuyerRound(MAX_ROUNDS) - 1, maxRounds: MAX_ROUNDS });
        const most = strategy === 'firm' ? opening : limit;
        expect(answer).toEqual(ask <= most ? { action: 'accept' } : { action: 'reject' });
      }),
    );
  });
});
