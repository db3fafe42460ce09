// Prices: ranges ("between 1 and 2 euros"), ceilings ("under €0.15 each", "max 5 USD per unit", "no more
// than 20 dollars", "$5 max", "5 cents or less", "0,12 € each", "15$"), floors ("at least £3"), a currency
// alone ("priced in euros") and total budgets ("budget 500 EUR total"), which are not unit prices: the
// ceiling is derived from them once the quantity is known (./budget.ts). Money is read as written
// (money.ts moneyAsWritten). A bound per piece ("each", "per glove", "a pen") is recorded as
// `pricePer: 'piece'`; per box, pack or case, or with nothing said, it bounds the unit sold (the search
// plan keeps `piece` only where some product sold in packs makes the two differ).
import { majorToMinor } from '../../schemas/money.ts';
import { currencyOf, currencyWordsIn, MONEY_GROUPS, moneyAsWritten, moneyFrom, moneyPattern, patternCache, statedCurrency, SYMBOL } from './money.ts';
import { cut, escapeRegExp, type Extractor, type Money } from './reading.ts';

const UNIT_WORDS = 'unit|piece|pc|pcs|item|box|pair|roll|pack|packet|case|kg|kilo|kilogram|bottle|ream|litre|liter|glove|mask|bag|carton|sheet|set|each';
const PER_UNIT_ONE = `(?:(?:per|a|an|each|/|for\\s+(?:a|an|one|each))\\s*(?:${UNIT_WORDS})s?\\b|each\\b|apiece\\b|a piece\\b|/\\s?(?:ea|pc|unit)\\b)`;
const PER_UNIT = `(?:\\s*${PER_UNIT_ONE})?`;
/** Words for the unit sold as a whole (a box of 50 pens is one box): a bound per one of these is per unit. */
const PACK_WORDS = /\b(?:box|boxes|pack|packs|packet|packets|case|cases|carton|cartons|ream|reams|bag|bags|set|sets|unit|units)\b/i;
/** "500 boxes of gloves … 13 EUR each": each of what is counted, a unit sold. */
const PACKS_COUNTED = /\b\d[\d,.]*\s*(?:k\s+)?(?:boxes|packs|packets|cases|cartons|reams|bags|sets)\s+of\b/i;
/** A per-word after a price that the request names elsewhere ("ballpoint pens, max 8 cents a pen"): the product's piece. */
const PER_NOUN = /^\s*(?:(?:or|and)\s+(?:less|under|below|cheaper)\s+)?(?:per|a|an|each|\/|for\s+(?:a|an|one|each))\s*(\p{L}+)\b/iu;
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
      `(?:\\b(?:under|below|less than|lower than|cheaper than|max(?:imum|\\.)?(?: price)?(?: of)?|at most|up to|upto|no more than|not more than|not over|not above|no higher than|within|for|price(?: limit| cap)?)\\s*:?\\s*|<=?\\s*|≤\\s*)${MONEY}${PER_UNIT}(?:\\s*(?:or|and)\\s*(?:less|under|below|cheaper))?${PER_UNIT}`,
      'gi',
    ),
    CEILING_AFTER: new RegExp(`${MONEY}${PER_UNIT}\\s*(?:(?:or|and)\\s*(?:less|under|below|cheaper)|max(?:imum)?|tops|at most|or lower|ceiling|limit)\\b\\.?${PER_UNIT}`, 'gi'),
    FLOOR: new RegExp(`(?:\\b(?:over|above|more than|at least|min(?:imum|\\.)?|starting at|no less than|not less than)\\s*:?\\s*|>=?\\s*|≥\\s*)${MONEY}${PER_UNIT}`, 'gi'),
    /** A price the buyer names per unit or piece, or "at" one, without a cap word ("0.08 EUR each", "USD 0.08/pc", "@ $5"): what they will pay at most. */
    AT_PRICE: new RegExp(`(?:\\b(?:at|priced at)\\s+|@\\s*)${MONEY}${PER_UNIT}|${MONEY}\\s*${PER_UNIT_ONE}`, 'gi'),
    CURRENCY_ONLY: new RegExp(`\\b(?:(?:priced|paid|payable|invoiced|billed|quoted|paying|pay)\\s+)?in\\s+${currencyWord}`, 'gi'),
  };
});

/**
 * What a price phrase bounds, from its words: a unit sold ("per box", "a ream", "each" after a count of
 * boxes), a piece ("each", "per glove", "apiece"), or nothing said.
 */
function basisOf(phrase: string, text: string): 'unit' | 'piece' | undefined {
  const after = phrase.replace(/^.*?\d[\d.,]*\s*(?:k\b)?/s, '');
  if (PACK_WORDS.test(after)) return 'unit';
  if (/\b(?:each|apiece|a piece|ea)\b/i.test(after)) return PACKS_COUNTED.test(text) ? 'unit' : 'piece';
  if (new RegExp(`(?:per|a|an|/)\\s*(?:${UNIT_WORDS})s?\\b`, 'i').test(after)) return 'piece';
  return undefined;
}

/**
 * The product noun after a price ("max 8 cents a pen", "0.30 EUR per battery") when the request names it
 * elsewhere, so that it is no product word of its own: the phrase to take out with the price, or ''.
 */
function perNounAfter(text: string, end: number, phrase: string): string {
  const match = PER_NOUN.exec(text.slice(end));
  if (!match) return '';
  const noun = (match[1] as string).toLowerCase();
  if (noun.length < 3) return '';
  // The noun, or its singular or plural, named elsewhere in the request.
  const forms = new Set([noun, `${noun}s`, `${noun}es`, noun.replace(/y$/, 'ies'), noun.replace(/ies$/, 'y'), noun.replace(/e?s$/, '')]);
  const rest = `${text.slice(0, end - phrase.length)} ${text.slice(end + match[0].length)}`;
  return new RegExp(`\\b(?:${[...forms].map(escapeRegExp).join('|')})\\b`, 'i').test(rest) ? match[0] : '';
}

export const readPrices: Extractor = ({ text, reading }) => {
  text = moneyAsWritten(text);
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
  let basis: 'unit' | 'piece' | undefined;
  /** Takes a bound's phrase out, with a product noun after it that the request names elsewhere, and notes what it bounds. */
  const take = (match: RegExpExecArray | RegExpMatchArray) => {
    // Found again in the text as it is now (an earlier bound may have been taken out before it).
    const at = text.indexOf(match[0]);
    if (at < 0) return;
    const noun = perNounAfter(text, at + match[0].length, match[0]);
    basis ??= basisOf(`${match[0]}${noun}`, text) ?? (noun ? 'piece' : undefined);
    text = `${text.slice(0, at)} ${text.slice(at + match[0].length + noun.length)}`;
  };
  const fits = (money: Money) => filters.currency === undefined || filters.currency === money.currency;

  for (const match of [...text.matchAll(patternsFor(text).RANGE)]) {
    const low = moneyFrom(match, 0, centsOf);
    const high = moneyFrom(match, MONEY_GROUPS, centsOf);
    if (low && high && low.currency === high.currency && low.amount <= high.amount) {
      Object.assign(filters, { minPrice: low.amount, maxPrice: high.amount, currency: low.currency });
      take(match);
    }
  }
  if (filters.maxPrice === undefined) {
    for (const match of [...text.matchAll(patternsFor(text).RANGE_SHARED)]) {
      const high = moneyFrom(match, 2, centsOf);
      if (!high || (!match[1] && !/\b(?:between|from)\b/i.test(match[0]))) continue;
      const low = majorToMinor(String(Number(match[2])), high.currency);
      if (low !== undefined && low <= high.amount) {
        Object.assign(filters, { minPrice: low, maxPrice: high.amount, currency: high.currency });
        take(match);
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
      take(match);
    }
  }
  if (filters.maxPrice === undefined && filters.minPrice === undefined) {
    for (const match of [...text.matchAll(patternsFor(text).AT_PRICE)]) {
      const money = moneyFrom(match, 0, centsOf) ?? moneyFrom(match, MONEY_GROUPS, centsOf);
      if (!money || !fits(money)) continue;
      filters.maxPrice = money.amount;
      filters.currency = money.currency;
      take(match);
      break;
    }
  }
  // "priced in euros"; said again beside a price in that currency ("budget in EUR, max 8 cents"), it is read once.
  for (const match of [...text.matchAll(patternsFor(text).CURRENCY_ONLY)]) {
    const currency = currencyOf(match[1] as string);
    if (!currency || (filters.currency !== undefined && filters.currency !== currency)) continue;
    filters.currency = currency;
    text = cut(text, match[0]);
  }
  if (basis === 'piece' && (filters.maxPrice !== undefined || filters.minPrice !== undefined)) filters.pricePer = 'piece';
  return { text, reading: { ...reading, filters, budget } };
};
