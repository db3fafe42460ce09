// The sandbox house seller's sealed quote as pure rules: it opens at the price its offer's policy
// accepts at once, never quotes above the buyer's cap or its list price, never below what its policy
// would ever accept, and does not quote when the cap is under that; it quotes its stock when short and
// nothing under the minimum order; the quote stays valid a week past the close, within the offer's end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUSE_QUOTE_VALID_AFTER_CLOSE_MS, houseQuotePrice, houseQuoteQuantity, houseQuoteValidUntil } from '../../shared/domain/house-seller-quote.ts';
import { NEGOTIATION_STRATEGIES } from '../../shared/schemas/catalog.ts';

const conceding = { listPrice: 1000, negotiable: true, strategy: 'linear' as const, floor: 800, autoAccept: 950 };

describe('the house seller’s quoted unit price', () => {
  it('opens at the auto-accept price, else the list price', () => {
    expect(houseQuotePrice({ ...conceding, cap: null })).toBe(950);
    expect(houseQuotePrice({ ...conceding, autoAccept: undefined, cap: null })).toBe(1000);
    expect(houseQuotePrice({ ...conceding, negotiable: false, cap: null })).toBe(1000);
    // An auto-accept price at or above the list is never reached: the list price is quoted.
    expect(houseQuotePrice({ ...conceding, autoAccept: 1200, cap: null })).toBe(1000);
  });

  it('meets a lower cap down to the floor when its strategy concedes, and does not quote below it', () => {
    expect(houseQuotePrice({ ...conceding, cap: 900 })).toBe(900);
    expect(houseQuotePrice({ ...conceding, cap: 800 })).toBe(800);
    expect(houseQuotePrice({ ...conceding, cap: 799 })).toBeUndefined();
    expect(houseQuotePrice({ ...conceding, cap: 1 })).toBeUndefined();
  });

  it('holds its opening price when firm or not negotiable: a lower cap gets no quote', () => {
    expect(houseQuotePrice({ ...conceding, strategy: 'firm', cap: 950 })).toBe(950);
    expect(houseQuotePrice({ ...conceding, strategy: 'firm', cap: 949 })).toBeUndefined();
    expect(houseQuotePrice({ ...conceding, negotiable: false, cap: 999 })).toBeUndefined();
    expect(houseQuotePrice({ ...conceding, strategy: null, floor: undefined, cap: 999 })).toBe(950);
    expect(houseQuotePrice({ ...conceding, strategy: null, floor: undefined, cap: 949 })).toBeUndefined();
  });

  it('is never above the cap or the list price, and never below the floor', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        fc.constantFrom(null, ...NEGOTIATION_STRATEGIES),
        fc.option(fc.double({ min: 0, max: 1.2, noNaN: true })),
        fc.option(fc.double({ min: 0, max: 1.2, noNaN: true })),
        fc.option(fc.integer({ min: 1, max: 1_200_000 })),
        (listPrice, negotiable, strategy, floorShare, autoShare, cap) => {
          const floor = floorShare === null ? undefined : Math.floor(listPrice * floorShare);
          const autoAccept = autoShare === null ? undefined : Math.floor(listPrice * autoShare);
          const price = houseQuotePrice({ listPrice, negotiable, strategy, floor, autoAccept, cap });
          if (price === undefined) return;
          expect(price).toBeGreaterThan(0);
          expect(price).toBeLessThanOrEqual(listPrice);
          if (cap !== null) expect(price).toBeLessThanOrEqual(cap);
          if (floor !== undefined && floor > 0 && floor <= listPrice) expect(price).toBeGreaterThanOrEqual(Math.min(floor, autoAccept !== undefined && autoAccept > 0 ? autoAccept : listPrice));
          if (cap === null || cap >= listPrice) expect(price).toBe(negotiable && autoAccept !== undefined && autoAccept > 0 && autoAccept < listPrice ? autoAccept : listPrice);
        },
      ),
    );
  });
});

describe('the house seller’s quoted quantity', () => {
  it('is the request’s, or its stock when smaller, and none under the minimum order', () => {
    expect(houseQuoteQuantity(50, 500, 10)).toBe(50);
    expect(houseQuoteQuantity(5000, 2000, 100)).toBe(2000);
    expect(houseQuoteQuantity(50, 40, 100)).toBeUndefined();
    expect(houseQuoteQuantity(50, 0, 1)).toBeUndefined();
  });
});

describe('the house seller’s quote validity', () => {
  it('lasts a week past the close, never beyond the offer’s end', () => {
    const closesAt = '2027-01-10T12:00:00.000Z';
    expect(houseQuoteValidUntil(closesAt, null)).toBe(new Date(Date.parse(closesAt) + HOUSE_QUOTE_VALID_AFTER_CLOSE_MS).toISOString());
    expect(houseQuoteValidUntil(closesAt, '2027-01-12T00:00:00.000Z')).toBe('2027-01-12T00:00:00.000Z');
    expect(houseQuoteValidUntil(closesAt, '2027-03-01T00:00:00.000Z')).toBe('2027-01-17T12:00:00.000Z');
  });
});
