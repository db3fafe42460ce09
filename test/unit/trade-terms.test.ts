// The rules a session's terms must meet so that an accepted session can always be ordered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listTotalProblem, overListProblem, proposalProblems, quantityProblem, totalProblem } from '../../shared/domain/trade-terms.ts';
import { Money } from '../../shared/schemas/money.ts';
import { MAX_ORDER_TOTAL } from '../../shared/schemas/trade.ts';

describe('trade terms', () => {
  it('refuse a buyer proposal above the list price for its quantity, naming the list price in the currency’s units', () => {
    expect(overListProblem(1100, 10, 500, 'EUR')).toEqual({ path: 'unitPrice', message: "Must be at most 10 (0.10 EUR), the offer's list price for 500 units; propose that price or less" });
    expect(overListProblem(1600, 1500, 2, 'JPY')?.message).toContain('1500 (1500 JPY)');
    expect(overListProblem(10, 10, 500, 'EUR')).toBeUndefined();
    expect(overListProblem(9, 10, 500, 'EUR')).toBeUndefined();
  });

  it('refuse a quantity below the minimum or above the stock, naming both limits', () => {
    expect(quantityProblem(5, { minimum: 10, available: 50 })).toMatch(/at least 10.*at most 50/);
    expect(quantityProblem(51, { minimum: 10, available: 50 })).toMatch(/at most 50.*minimum is 10/);
    expect(quantityProblem(10, { minimum: 10, available: 50 })).toBeUndefined();
    expect(quantityProblem(50, { minimum: 10, available: 50 })).toBeUndefined();
  });

  it('refuse 40,001 × 25,000,000 VND when it is proposed, and allow 40,000 (exactly the largest total)', () => {
    expect(MAX_ORDER_TOTAL).toBe(1_000_000_000_000);
    expect(listTotalProblem(40_001, 25_000_000, 'VND')).toMatch(/largest order total, 1000000000000 the smallest unit of VND \(whole dong\); negotiate at most 40000 units/);
    expect(listTotalProblem(40_000, 25_000_000, 'VND')).toBeUndefined();
    expect(totalProblem(40_000, 25_000_001, 'VND')).toMatch(/may be at most 25000000/);
    expect(proposalProblems({ quantity: 40_001, unitPrice: 25_000_000, currency: 'VND', listPrice: 25_000_000, limits: { minimum: 1, available: 100_000 } })).toEqual([
      { path: 'quantity', message: expect.stringContaining('1000000000000') },
      { path: 'unitPrice', message: expect.stringContaining('1000000000000') },
    ]);
    // A seller's counter is not held to the list price, only to the largest total.
    expect(proposalProblems({ quantity: 40_000, unitPrice: 25_000_000, currency: 'VND', limits: { minimum: 1, available: 100_000 } })).toEqual([]);
  });

  it('agree with the order schema: terms pass exactly when their total is an amount an order can hold (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), fc.integer({ min: 1, max: 1_000_000_000_000 }), (quantity, unitPrice) => {
        const orderable = Money.safeParse({ amount: quantity * unitPrice, currency: 'VND' }).success;
        expect(totalProblem(quantity, unitPrice, 'VND') === undefined).toBe(orderable);
        expect(listTotalProblem(quantity, unitPrice, 'VND') === undefined).toBe(orderable);
      }),
      { numRuns: 1000 },
    );
    // And at the edge, where most products are far below it.
    for (const [quantity, unitPrice] of [[1, MAX_ORDER_TOTAL], [2, MAX_ORDER_TOTAL / 2], [2, MAX_ORDER_TOTAL / 2 + 1], [1_000_000_000, 1000], [1_000_000_000, 1001]] as const) {
      expect(totalProblem(quantity, unitPrice, 'VND') === undefined).toBe(Money.safeParse({ amount: quantity * unitPrice, currency: 'VND' }).success);
    }
  });

  it('refuses a unit price that is not whole, in the session’s unit, before its total', () => {
    const limits = { minimum: 1, available: 100 };
    expect(proposalProblems({ quantity: 10, unitPrice: 12.5, currency: 'JPY', limits })).toEqual([{ path: 'unitPrice', message: expect.stringContaining('whole yen') }]);
    expect(proposalProblems({ quantity: 10, unitPrice: 12.5, currency: 'EUR', limits })).toEqual([{ path: 'unitPrice', message: expect.stringContaining('EUR cents') }]);
    expect(proposalProblems({ quantity: 10, unitPrice: 12, currency: 'EUR', limits })).toEqual([]);
  });
});
