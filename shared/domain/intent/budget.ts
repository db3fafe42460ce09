// A total budget is not a unit price: with a quantity, the unit-price ceiling is the budget divided by
// it ("500 gloves, budget 50 EUR total" → at most 10 cents each); without one, a unit cannot cost more
// than the whole budget. An explicit unit ceiling, if also given, wins.
import type { Extractor } from './reading.ts';

export const applyBudget: Extractor = ({ text, reading }) => {
  const { budget } = reading;
  if (!budget || reading.filters.maxPrice !== undefined) return { text, reading };
  const maxPrice = reading.quantity ? Math.floor(budget.amount / reading.quantity) : budget.amount;
  return { text, reading: { ...reading, filters: { ...reading.filters, currency: budget.currency, maxPrice } } };
};
