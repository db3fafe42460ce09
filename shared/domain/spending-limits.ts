// A restricted key's spending limits (contract §5.2), as pure rules: which limits an order breaks, in
// what words, whether it must wait for approval, and what a dry run says is left. The counters that
// make the per-period limits hold under racing orders are conditional writes in the order's own
// transaction (shared/data/spend-counters.ts); these rules decide what those conditions are and say
// what a refusal means.
import type { FieldProblem } from '../failures.ts';
import { limitsCurrency, type KeyLimits } from '../schemas/keys.ts';
import { formatMoney, type Money } from '../schemas/money.ts';
import type { LimitsPreview } from '../schemas/trade.ts';

export { formatMoney } from '../schemas/money.ts';

/** What an order is, for its key's limits. */
export interface OrderTerms {
  total: number;
  currency: string;
  sellerId: string;
}

const PERIOD_WORDS = { spendPerDay: ['daily budget', 'today'], spendPerMonth: ['monthly budget', 'this month'] } as const;

/** The refusal of a per-period limit, given what was spent in the period; undefined when the order fits. */
export function spendProblem(limit: 'spendPerDay' | 'spendPerMonth', budget: Money, spent: number, total: number): FieldProblem | undefined {
  if (spent + total <= budget.amount) return undefined;
  const [name, period] = PERIOD_WORDS[limit];
  const left = formatMoney(budget.amount - spent, budget.currency);
  return {
    path: `limits.${limit}`,
    message: `This order of ${formatMoney(total, budget.currency)} is over the key’s ${name}: ${left} of ${formatMoney(budget.amount, budget.currency)} left ${period}`,
  };
}

/**
 * The limits an order breaks whatever the counters say: its currency, its seller, its total against
 * the per-order limit, and against a period's whole budget (an order larger than the budget never
 * fits). Empty for a key without limits. The per-period limits against what was spent are the
 * counters' conditions (or spendProblem, for a dry run).
 */
export function limitProblems(limits: KeyLimits | null, order: OrderTerms): FieldProblem[] {
  if (!limits) return [];
  const problems: FieldProblem[] = [];
  const currency = limitsCurrency(limits);
  if (currency !== undefined && currency !== order.currency) {
    problems.push({ path: 'limits.currency', message: `This key orders in ${currency} only; the order is in ${order.currency}` });
    return problems; // no amount can be compared across currencies
  }
  if (limits.allowedSellerIds && !limits.allowedSellerIds.includes(order.sellerId)) {
    problems.push({ path: 'limits.allowedSellerIds', message: `This key orders only from its allowed sellers; ${order.sellerId} is not one of them` });
  }
  if (limits.maxOrderAmount && order.total > limits.maxOrderAmount.amount) {
    problems.push({ path: 'limits.maxOrderAmount', message: `This order of ${formatMoney(order.total, order.currency)} is over the key’s limit of ${formatMoney(limits.maxOrderAmount.amount, order.currency)} per order` });
  }
  for (const limit of ['spendPerDay', 'spendPerMonth'] as const) {
    const budget = limits[limit];
    const problem = budget && spendProblem(limit, budget, 0, order.total);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The refusal of a product that ships from a country the key does not allow; undefined when it may be ordered. */
export function shipsFromProblem(limits: KeyLimits | null, shipsFrom: string | null): FieldProblem | undefined {
  const allowed = limits?.allowedShipsFrom;
  if (!allowed || (shipsFrom !== null && allowed.includes(shipsFrom))) return undefined;
  return {
    path: 'limits.allowedShipsFrom',
    message: `This key orders only products shipping from ${allowed.join(', ')}; this one ships from ${shipsFrom ?? 'an unstated country'}`,
  };
}

/** Whether the key counts its spend per day and month: it has a money limit (and so a currency). */
export function countsSpend(limits: KeyLimits | null): boolean {
  return limitsCurrency(limits) !== undefined;
}

/** An order over the key's `approvalAbove` waits for the main key. */
export function requiresApproval(limits: KeyLimits | null, total: number): boolean {
  return limits?.approvalAbove !== undefined && total > limits.approvalAbove.amount;
}

/** What a dry run shows of the key's limits: each money limit with what is left of it before the order. */
export function limitsPreview(limits: KeyLimits | null, spent: { day: number; month: number }, total: number): LimitsPreview | null {
  if (!limits) return null;
  const currency = limitsCurrency(limits);
  const left = (limit: Money, used: number) => ({ limit, remaining: { amount: Math.max(0, limit.amount - used), currency: limit.currency } });
  const preview: LimitsPreview = {};
  if (limits.maxOrderAmount) preview.maxOrderAmount = left(limits.maxOrderAmount, 0);
  if (limits.spendPerDay) preview.spendPerDay = left(limits.spendPerDay, spent.day);
  if (limits.spendPerMonth) preview.spendPerMonth = left(limits.spendPerMonth, spent.month);
  if (limits.approvalAbove && currency !== undefined) preview.approvalAbove = { limit: limits.approvalAbove, required: requiresApproval(limits, total) };
  return preview;
}

/** The message of a refusal: what to do about it, after the first limit's words. */
export function refusalMessage(problems: readonly FieldProblem[]): string {
  const first = problems[0];
  return `Over this key’s spending limits${first ? `: ${first.message}` : ''}; nothing was ordered. Order less, or ask the owner to raise the limit or to order with the main key`;
}
