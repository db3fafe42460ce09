// What terms a session may hold, as pure rules: every proposal (opening or counter) and every accept
// is checked against them, so that an accepted session can always be ordered — its quantity within
// the minimum order and the stock, its total within what an order can hold.
import type { FieldProblem } from '../failures.ts';
import { formatMoney } from '../schemas/money.ts';
import { MAX_ORDER_TOTAL } from '../schemas/trade.ts';
import { describeAmount, minorUnitName, minorUnitProblem } from '../schemas/money.ts';

export interface QuantityLimits {
  /** The larger of the offer's minQuantity and the product's minOrderQuantity. */
  minimum: number;
  /** The product's availableQuantity now. */
  available: number;
}

/** Why a quantity cannot be ordered now (below the minimum, above the stock), or undefined. */
export function quantityProblem(quantity: number, limits: QuantityLimits): string | undefined {
  if (quantity < limits.minimum) return `Must be at least ${limits.minimum}, the offer's minimum order quantity (at most ${limits.available} are available)`;
  if (quantity > limits.available) return `Must be at most ${limits.available}, the quantity available (the minimum is ${limits.minimum})`;
  return undefined;
}

/** quantity × unitPrice in minor units; beyond safe integers only when far above MAX_ORDER_TOTAL, which is all it is compared with. */
export function orderTotal(quantity: number, unitPrice: number): number {
  return quantity * unitPrice;
}

/**
 * Why a quantity cannot be negotiated at all: at the offer's own price for it, its total would be
 * more than an order can hold. (Any ask of the seller's policy is at most that price, so a session
 * whose quantity passes can be ordered whatever price it settles on below it.)
 */
export function listTotalProblem(quantity: number, listPrice: number, currency: string): string | undefined {
  if (orderTotal(quantity, listPrice) <= MAX_ORDER_TOTAL) return undefined;
  const most = Math.floor(MAX_ORDER_TOTAL / listPrice);
  return `At the offer's price for this quantity, ${describeAmount(listPrice, currency)} per unit, ${quantity} units come to more than the largest order total, ${MAX_ORDER_TOTAL} ${minorUnitName(currency)}; negotiate at most ${most} units per session`;
}

/** Why these terms exceed the largest order total, or undefined. */
export function totalProblem(quantity: number, unitPrice: number, currency: string): string | undefined {
  if (orderTotal(quantity, unitPrice) <= MAX_ORDER_TOTAL) return undefined;
  return `${quantity} units at ${describeAmount(unitPrice, currency)} come to more than the largest order total, ${MAX_ORDER_TOTAL} ${minorUnitName(currency)}; for ${quantity} units the unit price may be at most ${Math.floor(MAX_ORDER_TOTAL / quantity)}`;
}

/** The problems of a proposal's terms, on the fields the mover can change. */
export function proposalProblems(terms: { quantity: number; unitPrice: number; currency: string; listPrice?: number | undefined; limits: QuantityLimits }): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const quantity = quantityProblem(terms.quantity, terms.limits) ?? (terms.listPrice === undefined ? undefined : listTotalProblem(terms.quantity, terms.listPrice, terms.currency));
  if (quantity) problems.push({ path: 'quantity', message: quantity });
  // A unit price is a whole number of the session's minor unit: the refusal names the unit (EUR cents, whole yen).
  const price = minorUnitProblem(terms.unitPrice, terms.currency) ?? totalProblem(terms.quantity, terms.unitPrice, terms.currency);
  if (price) problems.push({ path: 'unitPrice', message: price });
  return problems;
}

/**
 * Why a buyer may not propose this unit price: above the offer's list price for the quantity (its price
 * tier). A buyer never overpays by mistake, and the seller's policy never accepts more than the list.
 */
export function overListProblem(unitPrice: number, listPrice: number, quantity: number, currency: string): FieldProblem | undefined {
  if (unitPrice <= listPrice) return undefined;
  return {
    path: 'unitPrice',
    message: `Must be at most ${listPrice} (${formatMoney(listPrice, currency)}), the offer's list price for ${quantity} units; propose that price or less`,
  };
}
