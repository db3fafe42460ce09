// Prices: ranges ("between 1 and 2 euros"), ceilings ("under €0.15 each", "max 5 USD per unit", "no more
// than 20 dollars", "$5 max", "5 cents or less"), floors ("at least £3"), a currency alone ("priced in
// euros") and total budgets ("budget 500 EUR total"), which are not unit prices: the ceiling is derived
// from them once the quantity is known (./budget.ts).
import { majorToMinor } from '../../schemas/money.ts';
import { currencyOf, currencyWordsIn, MONEY_GROUPS, moneyFrom, moneyPattern, patternCache, statedCurrency, SYMBOL } from './money.ts';
import { cut, type Extractor, type Money } from './reading.ts';

const UNIT_WORDS = 'unit|piece|pc|item|box|pair|roll|pack|case|kg|kilo|bottle|ream|litre|liter|glove|mask|bag|carton|sheet|set|each';
const PER_UNIT = `(?:\\s*(?:(?:per|a|an|each|/)\\s*(?:${UNIT_WORDS})s?\\b|each\\b|apiece\\b|a piece\\b|/\\s?(?:ea|pc|unit)\\b))?`;
const TOTAL = '(?:\\s*(?:in\\s+)?(?:total|overall|all in|altogether|for everything|for the lot|for all)\\b)';

/** The price patterns for a set of currency words (money.ts, currencyWordsIn): built once per set. */
const pricePatterns = patternCache((currencyWord) => {
  const MONEY = moneyPattern(currencyWord);
  return {
    RANGE: new RegExp(`\\b(?:between|from)\\s+${MONEY}\\s*(?:and|to|-)\\s*${MONEY}${PER_UNIT}`, 'gi'),
    /** "between 1 and 2 euros", "from $1 to 2": the currency written once. */
    RANGE_SHARED: new RegExp(`\\b(?:between|from)?\\s*(${SYMBOL})?\\s?(\\d+(?:\\.\\d+)?)\\s*(?:and|to|-)\\s*${MONEY}${PER_UNIT}`, 'gi'),
    BUDGET: new RegExp(
      `(?:\\b(?:total\\s+)?(?:budget|spend|spending|order value|order total)(?:\\s+is|\\s+of)?(?:\\s+(?:at most|no more than|not more than|max(?:imum)?|up to|under|below))?\\s*:?\\s*(?:of\\s+)?${MONEY}${TOTAL}?|\\b(?:for\\s+)?(?:under|below|max(?:imum)?|at most|up to|no more than)?\\s*${MONEY}${TOTAL}|${MONEY}\\s+(?:total\\s+)?budget\\b)`,
      'gi',
    ),
    CEILING: new RegExp(
      `(?:\\b(?:under|below|less than|lower than|cheaper than|max(?:imum)?(?: price)?(?: of)?|at most|up to|upto|no more than|not more than|not over|not above|no higher than|within|for|price(?: limit| cap)?)\\s*:?\\s*|<=?\\s*|≤\\s*)${MONEY}${PER_UNIT}(?:\\s*(?:or|and)\\s*(?:less|under|below|cheaper))?`,
      'gi',
    ),
    CEILING_AFTER: new RegExp(`${MONEY}${PER_UNIT}\\s*(?:(?:or|and)\\s*(?:less|under|below|cheaper)|max(?:imum)?|tops|at most|or lower|ceiling|limit)\\b`, 'gi'),
    FLOOR: new RegExp(`(?:\\b(?:over|above|more than|at least|min(?:imum)?|starting at|no less than|not less than)\\s*:?\\s*|>=?\\s*|≥\\s*)${MONEY}${PER_UNIT}`, 'gi'),
    CURRENCY_ONLY: new RegExp(`\\b(?:(?:priced|paid|payable|invoiced|billed|quoted|paying|pay)\\s+)?in\\s+${currencyWord}`, 'gi'),
  };
});

export const readPrices: Extractor = ({ text, reading }) => {
  // "8p" and "50 euro cents" as the minor-unit words the amounts are read with.
  text = text.replace(/(?<=\d)p\b/gi, ' pence').replace(/\beuro[\s-]cents?\b/gi, 'eurocents');
  // The patterns for the currency words the text holds, looked up again only after a cut changed it.
  const words = currencyWordsIn(text);
  const centsOf = statedCurrency(text, words);
  let patternsText = text;
  let patterns = pricePatterns(words);
  const patternsFor = (current: string) => {
    if (current !== patternsText) [patternsText, patterns] = [current, pricePatterns(currencyWordsIn(current))];
    return patterns;
  };
  const filters = { ...reading.filters };
  let budget: Money | null = reading.budget;
  const fits = (money: Money) => filters.currency === undefined || filters.currency === money.currency;

  for (const match of [...text.matchAll(patternsFor(text).RANGE)]) {
    const low = moneyFrom(match, 0, centsOf);
    const high = moneyFrom(match, MONEY_GROUPS, centsOf);
    if (low && high && low.currency === high.currency && low.amount <= high.amount) {
      Object.assign(filters, { minPrice: low.amount, maxPrice: high.amount, currency: low.currency });
      text = cut(text, match[0]);
    }
  }
  if (filters.maxPrice === undefined) {
    for (const match of [...text.matchAll(patternsFor(text).RANGE_SHARED)]) {
      const high = moneyFrom(match, 2, centsOf);
      if (!high || (!match[1] && !/\b(?:between|from)\b/i.test(match[0]))) continue;
      const low = majorToMinor(String(Number(match[2])), high.currency);
      if (low !== undefined && low <= high.amount) {
        Object.assign(filters, { minPrice: low, maxPrice: high.amount, currency: high.currency });
        text = cut(text, match[0]);
      }
    }
  }
  for (const match of [...text.matchAll(patternsFor(text).BUDGET)]) {
    const money = moneyFrom(match, 0, centsOf) ?? moneyFrom(match, MONEY_GROUPS, centsOf) ?? moneyFrom(match, 2 * MONEY_GROUPS, centsOf);
    if (!money || !fits(money)) continue;
    budget = money;
    filters.currency = money.currency;
    text = cut(text, match[0]);
  }
  for (const [pattern, field] of [
    ['CEILING', 'maxPrice'],
    ['CEILING_AFTER', 'maxPrice'],
    ['FLOOR', 'minPrice'],
  ] as const) {
    for (const match of [...text.matchAll(patternsFor(text)[pattern])]) {
      const money = moneyFrom(match, 0, centsOf);
      if (!money || !fits(money) || filters[field] !== undefined) continue;
      filters[field] = money.amount;
      filters.currency = money.currency;
      text = cut(text, match[0]);
    }
  }
  // "priced in euros"; said again beside a price in that currency ("budget in EUR, max 8 cents"), it is read once.
  for (const match of [...text.matchAll(patternsFor(text).CURRENCY_ONLY)]) {
    const currency = currencyOf(match[1] as string);
    if (!currency || (filters.currency !== undefined && filters.currency !== currency)) continue;
    filters.currency = currency;
    text = cut(text, match[0]);
  }
  return { text, reading: { ...reading, filters, budget } };
};
