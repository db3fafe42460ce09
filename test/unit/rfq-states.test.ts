// The request for quotes' state machines (contract §5.7): open → closed (the marketplace, at closesAt)
// | awarded | cancelled (the buyer, open or closed); quotes one per seller, valid until their date,
// decided by their RFQ; an award becomes an accepted negotiation session. Property tests over every
// sequence of moves and every clock.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  awardedSession,
  awardRefusal,
  quoteProblems,
  quoteStatusAt,
  quoteStatusIn,
  rankQuotes,
  RFQ_STATUSES,
  rfqMove,
  rfqStatusAt,
  type RfqAction,
  type RfqActor,
  type RfqState,
} from '../../shared/domain/rfq-states.ts';
import { negotiationMove } from '../../shared/domain/negotiation-states.ts';

const ACTIONS: readonly RfqAction[] = ['quote', 'close', 'award', 'cancel'];
const ACTORS: readonly RfqActor[] = ['buyer', 'seller', 'system'];
const T0 = Date.parse('2026-12-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const iso = (ms: number) => at(ms).toISOString();

const move = fc.record({ action: fc.constantFrom(...ACTIONS), actor: fc.constantFrom(...ACTORS), advance: fc.integer({ min: 0, max: 3_600_000 }) });

describe('the RFQ state machine', () => {
  it('lets each move only its party: quotes by sellers, awards and cancels by the buyer, closing by the marketplace', () => {
    const open: RfqState = { status: 'open', closesAt: iso(1000) };
    const allowed = ACTIONS.flatMap((action) => ACTORS.map((actor) => ({ action, actor, result: rfqMove(open, action, actor, at(0)) })))
      .filter(({ result }) => 'to' in result)
      .map(({ action, actor, result }) => `${actor}:${action}→${'to' in result ? result.to : ''}`)
      .sort();
    expect(allowed).toEqual(['buyer:award→awarded', 'buyer:cancel→cancelled', 'seller:quote→open']);
    // Closing is due at closesAt, not before.
    expect(rfqMove(open, 'close', 'system', at(999))).toMatchObject({ refused: 'conflict' });
    expect(rfqMove(open, 'close', 'system', at(1000))).toEqual({ to: 'closed' });
  });

  it('reads an open RFQ past closesAt as closed: no quote lands after it, but the buyer may still award or cancel', () => {
    const rfq: RfqState = { status: 'open', closesAt: iso(1000) };
    expect(rfqStatusAt(rfq, at(1000))).toBe('closed');
    expect(rfqMove(rfq, 'quote', 'seller', at(1000))).toMatchObject({ refused: 'conflict', details: [{ path: 'status', message: 'The request for quotes is closed' }] });
    expect(rfqMove(rfq, 'award', 'buyer', at(5000))).toEqual({ to: 'awarded' });
    expect(rfqMove(rfq, 'cancel', 'buyer', at(5000))).toEqual({ to: 'cancelled' });
  });

  it('takes no move after awarded or cancelled, and closes at most once (property)', () => {
    fc.assert(
      fc.property(fc.array(move, { maxLength: 30 }), fc.integer({ min: 1, max: 7_200_000 }), (moves, closesIn) => {
        let state: RfqState = { status: 'open', closesAt: iso(closesIn) };
        let clock = 0;
        let closes = 0;
        let finals = 0;
        for (const { action, actor, advance } of moves) {
          clock += advance;
          const before = rfqStatusAt(state, at(clock));
          const result = rfqMove(state, action, actor, at(clock));
          if ('refused' in result) {
            // A refusal of the right party is about the state, and says which.
            if (result.refused === 'conflict') expect(result.details[0]?.message).toContain(before);
            continue;
          }
          if (before === 'awarded' || before === 'cancelled') throw new Error(`moved out of ${before}`);
          if (action === 'close') closes++;
          if (result.to === 'awarded' || result.to === 'cancelled') finals++;
          if (action === 'quote') expect(before).toBe('open');
          state = { ...state, status: result.to };
        }
        expect(closes).toBeLessThanOrEqual(1);
        expect(finals).toBeLessThanOrEqual(1);
        expect(RFQ_STATUSES).toContain(state.status);
      }),
    );
  });

  it('an RFQ is never both past its close and taking quotes (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), (closesIn, now) => {
        const result = rfqMove({ status: 'open', closesAt: iso(closesIn) }, 'quote', 'seller', at(now));
        expect('to' in result).toBe(now < closesIn);
      }),
    );
  });
});

describe('quotes', () => {
  const limits = { rfq: { currency: 'EUR', maxUnitPrice: 1200, closesAt: iso(10_000) }, available: 500, minimum: 10 };
  const terms = { unitPrice: 1100, quantity: 100, currency: 'EUR', leadTimeDays: 5, validUntil: iso(100_000) };

  it('refuses another currency, a price above the cap, more than the stock, less than the minimum and a validity already over, each on its field', () => {
    expect(quoteProblems(terms, limits, at(0))).toEqual([]);
    expect(quoteProblems({ ...terms, currency: 'USD' }, limits, at(0)).map((problem) => problem.path)).toEqual(['offerId']);
    expect(quoteProblems({ ...terms, unitPrice: 1201 }, limits, at(0))).toEqual([{ path: 'unitPrice', message: expect.stringContaining('at most 1200') }]);
    expect(quoteProblems({ ...terms, quantity: 501 }, limits, at(0))).toEqual([{ path: 'quantity', message: expect.stringContaining('at most 500') }]);
    expect(quoteProblems({ ...terms, quantity: 9 }, limits, at(0))).toEqual([{ path: 'quantity', message: expect.stringContaining('at least 10') }]);
    expect(quoteProblems({ ...terms, validUntil: iso(0) }, limits, at(0)).map((problem) => problem.path)).toEqual(['validUntil']);
    expect(quoteProblems({ ...terms, unitPrice: 99_999 }, { ...limits, rfq: { ...limits.rfq, maxUnitPrice: null } }, at(0))).toEqual([]);
  });

  it('accepts exactly the terms within every bound (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 1000 }), fc.constantFrom('EUR', 'USD'), fc.integer({ min: -5000, max: 5000 }), (unitPrice, quantity, currency, validIn) => {
        const problems = quoteProblems({ ...terms, unitPrice, quantity, currency, validUntil: iso(validIn) }, limits, at(0));
        const fits = currency === 'EUR' && unitPrice <= 1200 && quantity <= 500 && quantity >= 10 && validIn > 0;
        expect(problems.length === 0).toBe(fits);
      }),
    );
  });

  it('expires at validUntil and is awardable only before it', () => {
    const quote = { status: 'submitted' as const, validUntil: iso(1000) };
    expect(quoteStatusAt(quote, at(999))).toBe('submitted');
    expect(awardRefusal(quote, at(999))).toBeUndefined();
    expect(quoteStatusAt(quote, at(1000))).toBe('expired');
    expect(awardRefusal(quote, at(1000))).toMatchObject({ refused: 'conflict', details: [{ path: 'quoteId' }] });
  });

  it('is decided by its RFQ: the award’s quote accepted, every other declined, and nothing decided while open (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RFQ_STATUSES), fc.boolean(), fc.integer({ min: -1000, max: 1000 }), (status, winner, validIn) => {
        const awardedQuoteId = status === 'awarded' ? (winner ? 'qte_A' : 'qte_B') : null;
        const result = quoteStatusIn({ quoteId: 'qte_A', status: 'submitted', validUntil: iso(validIn) }, { status, awardedQuoteId }, at(0));
        if (status === 'awarded') expect(result).toBe(winner ? 'accepted' : 'declined');
        else if (status === 'cancelled') expect(result).toBe('declined');
        else expect(result).toBe(validIn > 0 ? 'submitted' : 'expired');
      }),
    );
  });

  it('ranks best first: awardable before expired, then by price, lead time and arrival, as a stable total order (property)', () => {
    const quote = fc.record({
      quoteId: fc.stringMatching(/^qte_[A-Z]{4}$/),
      status: fc.constant('submitted' as const),
      validUntil: fc.integer({ min: -100, max: 100 }).map(iso),
      unitPrice: fc.integer({ min: 1, max: 50 }),
      leadTimeDays: fc.integer({ min: 0, max: 5 }),
      updatedAt: fc.integer({ min: -100, max: 0 }).map(iso),
    });
    fc.assert(
      fc.property(fc.uniqueArray(quote, { selector: (q) => q.quoteId, maxLength: 20 }), (quotes) => {
        const ranked = rankQuotes(quotes, at(0));
        expect(rankQuotes([...quotes].reverse(), at(0))).toEqual(ranked);
        for (let index = 1; index < ranked.length; index++) {
          const [a, b] = [ranked[index - 1], ranked[index]] as [(typeof ranked)[number], (typeof ranked)[number]];
          const aLive = quoteStatusAt(a, at(0)) === 'submitted';
          const bLive = quoteStatusAt(b, at(0)) === 'submitted';
          if (aLive !== bLive) expect(aLive).toBe(true);
          else expect(a.unitPrice).toBeLessThanOrEqual(b.unitPrice);
        }
      }),
    );
  });
});

describe('the award', () => {
  it('is an accepted negotiation session at the quote’s terms, which the order step takes as it is', () => {
    const session = awardedSession(
      {
        sessionId: 'neg_01M83TK1C0AGPSWHZZWGW1WEGM',
        rfq: { rfqId: 'rfq_01M83TK1C0AGPSWHZZWGW1WEGN', buyerId: 'agt_B' },
        quote: { quoteId: 'qte_01M83TK1C0AGPSWHZZWGW1WEGP', sellerId: 'agt_S', offerId: 'ofr_X', productId: 'prd_X', productSku: 'SKU-X', currency: 'EUR', unitPrice: 1100, quantity: 100, message: null, updatedAt: iso(-10) },
        title: 'Gloves X',
      },
      at(0),
    );
    expect(session).toMatchObject({ status: 'accepted', sku: 'SKU-X', title: 'Gloves X', buyerId: 'agt_B', sellerId: 'agt_S', unitPrice: 1100, quantity: 100, currency: 'EUR', turn: null, expiresAt: null, acceptedAt: iso(0) });
    expect(session.history.map((step) => `${step.by}:${step.action}`)).toEqual(['seller:propose', 'buyer:accept']);
    // The negotiation state machine orders it, once, by its buyer only.
    expect(negotiationMove(session, { action: 'order', orderId: 'ord_1' }, 'buyer', at(1), 3600)).toMatchObject({ next: { status: 'ordered', orderId: 'ord_1' } });
    expect(negotiationMove(session, { action: 'order', orderId: 'ord_1' }, 'seller', at(1), 3600)).toMatchObject({ refused: 'forbidden' });
    expect(negotiationMove(session, { action: 'counter' }, 'seller', at(1), 3600)).toMatchObject({ refused: 'conflict' });
  });
});
