// A restricted key's spending limits as pure rules (shared/domain/spending-limits.ts): which limits an
// order breaks and in what words (money in the currency's own minor unit), when it waits for approval,
// what a dry run says is left; and, as a property, that the per-period rule admits orders exactly while
// they fit in the budget, so counters guarded by it never pass their limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, limitProblems, limitsPreview, requiresApproval, shipsFromProblem, spendProblem } from '../../shared/domain/spending-limits.ts';
import type { KeyLimits } from '../../shared/schemas/keys.ts';

const EUR = (amount: number) => ({ amount, currency: 'EUR' });
const SELLER = 'agt_01M83T4CM0G5QCN6ZW92TBMJ07';

describe('spending limits', () => {
  it('writes money with the currency’s exponent', () => {
    expect(formatMoney(12000, 'EUR')).toBe('120.00 EUR');
    expect(formatMoney(5, 'USD')).toBe('0.05 USD');
    expect(formatMoney(1500, 'JPY')).toBe('1500 JPY');
    expect(formatMoney(1500, 'BHD')).toBe('1.500 BHD');
  });

  it('says what is left of a daily or monthly budget', () => {
    expect(spendProblem('spendPerDay', EUR(50000), 38000, 30000)).toEqual({
      path: 'limits.spendPerDay',
      message: 'This order of 300.00 EUR is over the key’s daily budget: 120.00 EUR of 500.00 EUR left today',
    });
    expect(spendProblem('spendPerMonth', EUR(50000), 50000, 1)?.message).toBe('This order of 0.01 EUR is over the key’s monthly budget: 0.00 EUR of 500.00 EUR left this month');
    expect(spendProblem('spendPerDay', EUR(50000), 20000, 30000)).toBeUndefined();
  });

  it('refuses another currency first, then an unlisted seller, an order over the per-order limit or a whole budget', () => {
    const limits: KeyLimits = { maxOrderAmount: EUR(25000), spendPerDay: EUR(20000), allowedSellerIds: [SELLER] };
    expect(limitProblems(limits, { total: 100, currency: 'USD', sellerId: 'agt_other' })).toEqual([
      { path: 'limits.currency', message: 'This key orders in EUR only; the order is in USD' },
    ]);
    expect(limitProblems(limits, { total: 30000, currency: 'EUR', sellerId: 'agt_01M83T6770RB4X4RJFWXG49JCV' }).map((problem) => problem.path)).toEqual([
      'limits.allowedSellerIds',
      'limits.maxOrderAmount',
      'limits.spendPerDay',
    ]);
    expect(limitProblems(limits, { total: 20000, currency: 'EUR', sellerId: SELLER })).toEqual([]);
    expect(limitProblems(null, { total: 10 ** 12, currency: 'XAF', sellerId: 'agt_x' })).toEqual([]);
    expect(limitProblems({ allowedShipsFrom: ['DE'] }, { total: 1, currency: 'USD', sellerId: SELLER })).toEqual([]);
  });

  it('refuses products from countries the key does not allow, and products that do not say where they ship from', () => {
    expect(shipsFromProblem({ allowedShipsFrom: ['DE', 'NL'] }, 'US')?.message).toBe('This key orders only products shipping from DE, NL; this one ships from US');
    expect(shipsFromProblem({ allowedShipsFrom: ['DE'] }, null)?.path).toBe('limits.allowedShipsFrom');
    expect(shipsFromProblem({ allowedShipsFrom: ['DE'] }, 'DE')).toBeUndefined();
    expect(shipsFromProblem({}, 'US')).toBeUndefined();
  });

  it('asks for approval strictly above approvalAbove', () => {
    expect(requiresApproval({ approvalAbove: EUR(20000) }, 20000)).toBe(false);
    expect(requiresApproval({ approvalAbove: EUR(20000) }, 20001)).toBe(true);
    expect(requiresApproval(null, 10 ** 9)).toBe(false);
  });

  it('previews each limit with what is left before the order', () => {
    expect(limitsPreview({ spendPerDay: EUR(50000), spendPerMonth: EUR(200000), maxOrderAmount: EUR(40000), approvalAbove: EUR(20000) }, { day: 12000, month: 60000 }, 30000)).toEqual({
      maxOrderAmount: { limit: EUR(40000), remaining: EUR(40000) },
      spendPerDay: { limit: EUR(50000), remaining: EUR(38000) },
      spendPerMonth: { limit: EUR(200000), remaining: EUR(140000) },
      approvalAbove: { limit: EUR(20000), required: true },
    });
    expect(limitsPreview(null, { day: 0, month: 0 }, 1)).toBeNull();
  });

  it('admits a sequence of orders exactly while they fit, so the counter never passes the budget (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(fc.integer({ min: 1, max: 300_000 }), { maxLength: 40 }), (budget, orders) => {
        let spent = 0;
        for (const total of orders) {
          const problem = spendProblem('spendPerDay', EUR(budget), spent, total);
          expect(problem === undefined).toBe(spent + total <= budget);
          if (!problem) spent += total;
          expect(spent).toBeLessThanOrEqual(budget);
        }
      }),
    );
  });
});
