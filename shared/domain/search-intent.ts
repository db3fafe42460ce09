// Reading a buyer's plain-language intent, deterministically and without an external service:
// quantities (digits, words, shorthand), price bounds with currencies, origin countries, lead times,
// sort hints, brands and categories the catalog knows, and product words with typos corrected against
// the catalog's own vocabulary. Each recognised phrase is taken out of the text; what remains are
// keywords (known words), fillers (dropped) and `unparsed` words. The rules: docs/search.md.
import { closest, distance } from 'fastest-levenshtein';
import currencyCodes from 'currency-codes';
import { COUNTRY_CODES } from '../schemas/countries.ts';
import { COUNTRY_NAMES } from '../schemas/country-names.ts';
import { isCurrency, majorToMinor } from '../schemas/money.ts';
import type { SearchFilters, SearchSort } from '../schemas/search.ts';

export interface IntentLexicon {
  /** Lowercase brands of the catalog. */
  brands: readonly string[];
  /** Category paths of the catalog. */
  categories: readonly string[];
  /** Lowercase surface words of the catalog with the number of products using each. */
  vocabulary: ReadonlyMap<string, number>;
}

export interface Interpretation {
  keywords: string[];
  quantity: number | null;
  filters: SearchFilters;
  sort: SearchSort;
  unparsed: string[];
}

// ---------------------------------------------------------------- numbers

const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
  a: 1, an: 1, single: 1, couple: 2, dozen: 12, score: 20, gross: 144,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, k: 1_000, million: 1_000_000, m: 1_000_000, mil: 1_000_000 };
const NUMBER_WORD = `(?:${[...Object.keys(SMALL), ...Object.keys(SCALES).filter((w) => w.length > 1)].filter((w) => !['a', 'an', 'score', 'single', 'mil'].includes(w)).join('|')})`;
/** Number words in a row ("two thousand five hundred", "half a dozen", "a dozen", "twenty-four"). */
const WORDS_NUMBER = new RegExp(`\\b(?:half an? dozen|(?:an?|one) (?:hundred|thousand|million|dozen)(?:[ -](?:and[ -])?${NUMBER_WORD})*|${NUMBER_WORD}(?:[ -](?:and[ -])?${NUMBER_WORD})*)\\b`, 'g');

/** "two thousand five hundred" → 2500; undefined when the words are not a number. */
export function wordsToNumber(words: string): number | undefined {
  const parts = words.toLowerCase().replace(/-/g, ' ').split(/\s+/).filter((word) => word !== 'and');
  if (parts.join(' ') === 'half a dozen' || parts.join(' ') === 'half an dozen') return 6;
  let total = 0;
  let current = 0;
  let seen = false;
  for (const part of parts) {
    if (part in SMALL) {
      const value = SMALL[part] as number;
      if (part === 'dozen' || part === 'gross' || part === 'score') current = (current || 1) * value;
      else current += value;
      seen = true;
    } else if (part in SCALES) {
      const scale = SCALES[part] as number;
      if (scale >= 1000) {
        total += (current || 1) * scale;
        current = 0;
      } else current = (current || 1) * scale;
      seen = true;
    } else return undefined;
  }
  return seen ? total + current : undefined;
}

/** "2,500" → 2500, "10k" → 10000, "1.5k" → 1500, "0.12" → 0.12. */
function digitsToNumber(text: string): number | undefined {
  const match = /^(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|\.\d+)\s*(k|m|thousand|million)?$/i.exec(text.trim());
  if (!match) return undefined;
  const value = Number((match[1] as string).replace(/,/g, ''));
  const suffix = match[2]?.toLowerCase();
  const scale = suffix === 'k' || suffix === 'thousand' ? 1000 : suffix === 'm' || suffix === 'million' ? 1_000_000 : 1;
  return Number.isFinite(value) ? value * scale : undefined;
}

// ---------------------------------------------------------------- currencies

const CURRENCY_SYMBOLS: Record<string, string> = { $: 'USD', 'us$': 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW', 'chf': 'CHF', 'a$': 'AUD', 'c$': 'CAD' };
/** Currency words: ISO 4217 names from currency-codes ("euro", "yen", "swiss franc") with plurals, and common names. */
const CURRENCY_WORDS: ReadonlyMap<string, string> = (() => {
  const words = new Map<string, string>([
    ['dollar', 'USD'], ['dollars', 'USD'], ['usd', 'USD'], ['bucks', 'USD'], ['cents', 'USD'], ['cent', 'USD'],
    ['euro', 'EUR'], ['euros', 'EUR'], ['eur', 'EUR'], ['eurocents', 'EUR'],
    ['pound', 'GBP'], ['pounds', 'GBP'], ['quid', 'GBP'], ['pence', 'GBP'], ['sterling', 'GBP'],
    ['yen', 'JPY'], ['yuan', 'CNY'], ['rmb', 'CNY'], ['renminbi', 'CNY'], ['rupees', 'INR'], ['rupee', 'INR'],
  ]);
  for (const currency of currencyCodes.data) {
    if (!isCurrency(currency.code)) continue;
    const name = currency.currency.toLowerCase();
    if (!words.has(name)) words.set(name, currency.code);
    if (!words.has(`${name}s`)) words.set(`${name}s`, currency.code);
    if (!words.has(currency.code.toLowerCase())) words.set(currency.code.toLowerCase(), currency.code);
  }
  return words;
})();
/** Minor-unit words: the amount is already in the minor unit. */
const MINOR_UNIT_WORDS = new Set(['cent', 'cents', 'pence', 'eurocents']);

const SYMBOL = '(?:us\\$|a\\$|c\\$|\\$|€|£|¥|₹|₩)';
const AMOUNT = '(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|\\.\\d+)\\s*(k)?';
const CURRENCY_WORD = `(${[...CURRENCY_WORDS.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`;
/** A money amount: "$0.12", "4.50 EUR", "£3", "300 yen", "EUR 4.50", "12 cents". Groups: symbol, amount, k, code-before, amount, k, word-after. */
const MONEY = `(?:(${SYMBOL})\\s?${AMOUNT}(?:\\s?${CURRENCY_WORD})?|\\b${CURRENCY_WORD}\\s?${AMOUNT}|${AMOUNT}\\s?${CURRENCY_WORD})`;
const PER_UNIT = '(?:\\s*(?:(?:per|a|an|each|/)\\s*(?:unit|piece|pc|item|box|pair|roll|pack|case|kg|bottle|ream|litre|liter|glove|mask)s?\\b|each\\b|apiece\\b|/\\s?(?:ea|pc|unit)\\b))?';

interface Money {
  amount: number;
  currency: string;
}

function moneyFrom(match: RegExpExecArray, offset: number): Money | undefined {
  const g = (index: number) => match[offset + index];
  // Layout of MONEY's groups: 1 symbol, 2 amount, 3 k, 4 word | 5 word, 6 amount, 7 k | 8 amount, 9 k, 10 word.
  let currency: string | undefined;
  let amountText: string | undefined;
  let k: string | undefined;
  let word: string | undefined;
  if (g(1)) {
    currency = CURRENCY_SYMBOLS[(g(1) as string).toLowerCase()];
    amountText = g(2);
    k = g(3);
    word = g(4);
  } else if (g(5)) {
    word = g(5);
    amountText = g(6);
    k = g(7);
  } else {
    amountText = g(8);
    k = g(9);
    word = g(10);
  }
  if (word) {
    const lower = word.toLowerCase();
    const named = CURRENCY_WORDS.get(lower) ?? (isCurrency(word.toUpperCase()) ? word.toUpperCase() : undefined);
    if (!named) {
      if (!currency) return undefined;
    } else {
      if (currency && currency !== named && !MINOR_UNIT_WORDS.has(lower)) return undefined;
      currency = named;
      if (MINOR_UNIT_WORDS.has(lower)) {
        const cents = digitsToNumber(`${amountText ?? ''}${k ?? ''}`);
        return cents !== undefined && Number.isInteger(cents) ? { amount: cents, currency } : undefined;
      }
    }
  }
  if (!currency || !amountText) return undefined;
  const major = digitsToNumber(`${amountText}${k ?? ''}`);
  if (major === undefined) return undefined;
  const amount = majorToMinor(String(major), currency) ?? majorToMinor(major.toFixed(6).replace(/0+$/, '').replace(/\.$/, ''), currency);
  if (amount === undefined) {
    // More decimals than the currency has (¥1.5): round to its minor unit.
    const digits = currency === 'JPY' || currency === 'KRW' ? 0 : 2;
    return { amount: Math.round(major * 10 ** digits), currency };
  }
  return { amount, currency };
}
const MONEY_GROUPS = 10;

// ---------------------------------------------------------------- the parser

const FILLERS = new Set(
  ('i we me us our my need needs needed want wanted wants looking look for find get buy buying order ordering purchase source sourcing ' +
    'please pls some any the a an of with and or to in on at by per each unit units piece pieces pcs pc item items qty quantity ' +
    'supplier suppliers vendor vendors seller sellers that which who can could would should will is are be it its from ' +
    'ship ships shipping shipped delivered delivery deliver lead time days day weeks week price priced cost costs costing ' +
    'around about approx approximately roughly budget than less more no not only just also very good quality cheap new ' +
    'urgent urgently rush quickly soon fast size sized supplies supply products equipment goods category section department').split(' '),
);

/** Words for "a count of things", after a quantity. */
const COUNT_UNITS = '(?:pcs|pieces?|units?|items?|pairs?|boxe?s|box|rolls?|packs?|packages?|cases?|cartons?|kgs?|kilos?|kilograms?|reams?|bottles?|sets?|bags?|pallets?|sheets?|tons?|tonnes?|litres?|liters?|drums?|each|ea|x)';
/** Units that make a number a specification, not a quantity ("18 V", "12 oz", "80 gsm"). */
const SPEC_UNITS = /^(?:(?:v|volt|volts|w|watt|watts|mm|cm|m|km|in|inch|inches|oz|ml|l|gsm|g|mah|gb|tb|hz|ply|micron|mic)\b|%|"|x\d)/i;

const COUNTRY_CODE_PHRASE = /\b(?:from|in|ships? from|shipping from|shipped from|made in|origin:?|based in|located in|warehouse in)\s+(?:the\s+)?([A-Z]{2})\b/g;

export function parseIntent(intent: string, lexicon: IntentLexicon): Interpretation {
  let text = ` ${intent.replace(/[\u2010-\u2015]/g, '-').replace(/\s+/g, ' ').trim()} `;
  const filters: SearchFilters = {};
  let quantity: number | null = null;
  let sort: SearchSort = 'relevance';
  const take = (pattern: RegExp, replacement = ' ') => {
    text = text.replace(pattern, replacement);
  };

  // Prices: ranges first, then ceilings and floors. Each needs a currency (symbol, code or name).
  const range = new RegExp(`\\b(?:between|from)\\s+${MONEY}\\s*(?:and|to|-)\\s*${MONEY}${PER_UNIT}`, 'gi');
  const rangeShared = new RegExp(`\\b(?:between|from)\\s+(${SYMBOL})?\\s?(\\d+(?:\\.\\d+)?)\\s*(?:and|to|-)\\s*${MONEY}${PER_UNIT}`, 'gi');
  for (const match of [...text.matchAll(range)]) {
    const low = moneyFrom(match, 0);
    const high = moneyFrom(match, MONEY_GROUPS);
    if (low && high && low.currency === high.currency) {
      Object.assign(filters, { minPrice: low.amount, maxPrice: high.amount, currency: low.currency });
      text = text.replace(match[0], ' ');
    }
  }
  if (filters.currency === undefined) {
    for (const match of [...text.matchAll(rangeShared)]) {
      const high = moneyFrom(match, 2);
      const lowMajor = Number(match[2]);
      const low = high ? majorToMinor(String(lowMajor), high.currency) : undefined;
      if (high && low !== undefined) {
        Object.assign(filters, { minPrice: low, maxPrice: high.amount, currency: high.currency });
        text = text.replace(match[0], ' ');
      }
    }
  }
  const ceiling = new RegExp(`(?:\\b(?:under|below|less than|lower than|cheaper than|max(?:imum)?|at most|up to|upto|no more than|not more than|not over|not above|within|budget(?: of)?|for)\\s*:?\\s*|<=?\\s*|≤\\s*)${MONEY}${PER_UNIT}(?:\\s*(?:or|and)\\s*(?:less|under|below|cheaper))?`, 'gi');
  const ceilingAfter = new RegExp(`${MONEY}${PER_UNIT}\\s*(?:or|and)\\s*(?:less|under|below|cheaper)\\b|\\b${MONEY}${PER_UNIT}\\s*(?:max(?:imum)?|tops|at most)\\b`, 'gi');
  const floor = new RegExp(`(?:\\b(?:over|above|more than|at least|min(?:imum)?|from|starting at|no less than)\\s*:?\\s*|>=?\\s*|≥\\s*)${MONEY}${PER_UNIT}`, 'gi');
  for (const [pattern, field, offsets] of [
    [ceiling, 'maxPrice', [0]],
    [ceilingAfter, 'maxPrice', [0, MONEY_GROUPS]],
    [floor, 'minPrice', [0]],
  ] as const) {
    for (const match of [...text.matchAll(pattern)]) {
      const money = offsets.map((offset) => moneyFrom(match, offset)).find(Boolean);
      if (!money || (filters.currency && filters.currency !== money.currency)) continue;
      filters[field] = money.amount;
      filters.currency = money.currency;
      text = text.replace(match[0], ' ');
    }
  }

  // Lead time: "within 10 days", "in 2 weeks", "3 days or less", "within a month", "5 business days".
  const spans = '(\\d+(?:\\.\\d+)?|' + NUMBER_WORD + '|a|an|one)\\s*(business days?|working days?|days?|d|weeks?|wks?|months?|fortnight)';
  const leadPatterns = [
    new RegExp(`\\b(?:within|in|under|below|less than|max(?:imum)?|at most|up to|no more than|not more than|by|lead time(?: of)?(?: under| below| max| at most| within)?|ships? in|shipping in|delivered in|delivery in|delivery within|ship within|shipped within|dispatch(?:ed)? (?:with)?in|lead[- ]time:?)\\s*:?\\s*(?:the next\\s+)?${spans}\\b`, 'gi'),
    new RegExp(`\\b${spans}\\s*(?:or less|or fewer|max(?:imum)?|at most|or sooner|lead time|delivery|shipping)\\b`, 'gi'),
  ];
  leadPatterns.push(new RegExp(`\\b${spans}\\b`, 'gi'));
  for (const pattern of leadPatterns) {
    for (const match of [...text.matchAll(pattern)]) {
      const days = leadDays(match[1] as string, match[2] as string);
      if (days === undefined) continue;
      filters.maxLeadTimeDays = Math.min(filters.maxLeadTimeDays ?? Infinity, days);
      text = text.replace(match[0], ' ');
    }
  }
  if (/\b(?:within|in|by)\s+(?:a|one)\s+fortnight\b/i.test(text)) {
    filters.maxLeadTimeDays = 14;
    take(/\b(?:within|in|by)\s+(?:a|one)\s+fortnight\b/gi);
  }
  if (/\b(?:tomorrow|next[- ]day|overnight)\b/i.test(text) && filters.maxLeadTimeDays === undefined) {
    filters.maxLeadTimeDays = 1;
    take(/\b(?:by\s+)?(?:tomorrow|next[- ]day|overnight)(?:\s+(?:delivery|shipping))?\b/gi);
  }

  // Sort hints.
  const sorts: [RegExp, SearchSort][] = [
    [/\b(?:cheapest|lowest[- ]priced?|lowest price|least expensive|best price|most affordable|low(?:est)? cost|budget)\b/gi, 'price_asc'],
    [/\b(?:most expensive|highest[- ]priced?|highest price|priciest|premium)\b/gi, 'price_desc'],
    [/\b(?:newest|latest|most recent|new arrivals?|recently added)\b/gi, 'newest'],
    [/\b(?:fastest|quickest|soonest|asap|as soon as possible|shortest lead time|quickest delivery|fastest delivery|fastest shipping)\b/gi, 'lead_time'],
  ];
  for (const [pattern, hinted] of sorts) {
    if (pattern.test(text)) {
      if (sort === 'relevance') sort = hinted;
      take(pattern);
    }
  }

  // Origin: codes after "from/in/made in" (uppercase only: "in" and "us" are words), names and demonyms anywhere.
  for (const match of [...text.matchAll(COUNTRY_CODE_PHRASE)]) {
    const code = match[1] === 'UK' ? 'GB' : (match[1] as string);
    if (COUNTRY_CODES.has(code) && filters.shipsFrom === undefined) {
      filters.shipsFrom = code;
      text = text.replace(match[0], ' ');
    }
  }
  if (filters.shipsFrom === undefined) {
    const lower = text.toLowerCase();
    const found = findCountry(lower, lexicon.vocabulary);
    if (found) {
      filters.shipsFrom = found.code;
      text = text.slice(0, found.start) + ' ' + text.slice(found.end);
    }
  }

  // Quantity: a number followed by a count unit or a product word, or after "need/order/qty".
  const numberToken = `(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?(?:\\s?(?:k|thousand|million))?\\b|${WORDS_NUMBER.source.slice(2, -2)})`;
  const quantityPatterns = [
    new RegExp(`\\b(?:qty|quantity|moq|x)\\s*[:=]?\\s*${numberToken}`, 'gi'),
    new RegExp(`(?:^|\\s)${numberToken}\\s*(?:x\\s+)?(?=${COUNT_UNITS}\\b)(${COUNT_UNITS})?`, 'gi'),
    new RegExp(`\\b(?:need|needs|want|buy|order|ordering|purchase|source|get|looking for|require|requires)\\s+(?:about\\s+|around\\s+|roughly\\s+|approximately\\s+)?${numberToken}`, 'gi'),
    new RegExp(`(?<!\\b(?:size|sizes|cat|type|class|level|grade|vg|no|number|model|din|iso|en|m)\\s?)(?:^|\\s)${numberToken}(?=\\s+[a-z])`, 'gi'),
  ];
  for (const pattern of quantityPatterns) {
    if (quantity !== null) break;
    for (const match of [...text.matchAll(pattern)]) {
      const token = (match[1] as string).trim();
      const after = text.slice((match.index ?? 0) + match[0].length).trimStart();
      if (SPEC_UNITS.test(after) && !new RegExp(`^${COUNT_UNITS}\\b`, 'i').test(after)) continue;
      const value = /\d/.test(token) ? digitsToNumber(token.replace(/\s/g, '')) : wordsToNumber(token);
      if (value === undefined || !Number.isInteger(value) || value < 1) continue;
      quantity = value;
      // "40 boxes": the count unit is part of the quantity phrase.
      text = text.replace(match[0], ' ');
      text = text.replace(new RegExp(`^(\\s*)(?:${COUNT_UNITS})\\b`, 'i'), '$1');
      if (new RegExp(`^\\s*(?:of\\s+)?(?:${COUNT_UNITS})\\b`, 'i').test(text.slice(match.index ?? 0))) {
        text = text.slice(0, match.index ?? 0) + text.slice(match.index ?? 0).replace(new RegExp(`^\\s*(?:of\\s+)?(?:${COUNT_UNITS})\\b`, 'i'), ' ');
      }
      break;
    }
  }

  // Brands (multi-word first), then category names (a top-level or intermediate segment, as a path prefix).
  const lowerText = () => text.toLowerCase();
  for (const brand of [...lexicon.brands].sort((a, b) => b.length - a.length)) {
    const pattern = new RegExp(`(?:^|[^\\p{L}\\p{N}])(${escapeRegExp(brand)})(?:'s)?(?=$|[^\\p{L}\\p{N}])`, 'iu');
    const match = pattern.exec(lowerText());
    if (match && filters.brand === undefined) {
      filters.brand = brandLabel(brand, intent);
      const start = (match.index ?? 0) + match[0].indexOf(match[1] as string);
      text = text.slice(0, start) + ' ' + text.slice(start + (match[1] as string).length).replace(/^'s/, '');
    }
  }
  const categoryPrefixes = new Map<string, string>();
  for (const category of lexicon.categories) {
    const segments = category.split('/');
    // Leaf segments stay keywords (they are in the indexed text); broader segments become a category filter.
    segments.slice(0, -1).forEach((segment, index) => {
      if (!categoryPrefixes.has(segment)) categoryPrefixes.set(segment, segments.slice(0, index + 1).join('/'));
    });
  }
  // A segment that is also some category's leaf ("office": office/…, furniture/office) is ambiguous: a keyword.
  for (const category of lexicon.categories) categoryPrefixes.delete(category.split('/').at(-1) as string);

  // What is left: words. Fillers go, category words filter, known words are keywords, typos are corrected.
  const keywords: string[] = [];
  const unparsed: string[] = [];
  for (const raw of text.split(/[\s,;:!?()[\]{}"“”]+/)) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (word.length === 0) continue;
    const lower = word.toLowerCase();
    const category = categoryPrefixes.get(lower) ?? categoryPrefixes.get(lower.replace(/s$/, ''));
    // A category word filters only when named as one ("cleaning supplies", "category: hardware");
    // otherwise it is part of a product's name ("safety boots") and stays a keyword.
    if (category && filters.category === undefined && namedAsCategory(text, raw)) {
      filters.category = category;
      continue;
    }
    if (/^[a-z]+-[a-z]+/i.test(lower) && !lexicon.vocabulary.has(lower)) {
      // "powder-free": the vocabulary holds its parts.
      const parts = lower.split('-').filter(Boolean);
      if (parts.every((part) => lexicon.vocabulary.has(part))) {
        keywords.push(...parts);
        continue;
      }
    }
    if (FILLERS.has(lower)) continue;
    const known = knownWord(lower, lexicon.vocabulary);
    if (known) {
      if (!keywords.includes(known)) keywords.push(known);
    } else if (!FILLERS.has(lower) && !/^\d+([.,]\d+)?$/.test(lower)) unparsed.push(word);
  }
  return { keywords, quantity, filters, sort, unparsed };
}

function namedAsCategory(text: string, word: string): boolean {
  const at = text.indexOf(word);
  if (at < 0) return false;
  const after = text.slice(at + word.length);
  const before = text.slice(0, at);
  return /^\s*:?\s*(?:supplies|supply|products|equipment|items|gear|goods|category|section|department)\b/i.test(after) || /\b(?:category|in)\s*:?\s*$/i.test(before);
}

function leadDays(amountText: string, unitText: string): number | undefined {
  const amount = /\d/.test(amountText) ? Number(amountText) : wordsToNumber(amountText.toLowerCase() === 'a' || amountText.toLowerCase() === 'an' ? 'one' : amountText);
  if (amount === undefined || !Number.isFinite(amount)) return undefined;
  const unit = unitText.toLowerCase();
  let days: number;
  if (unit.startsWith('business') || unit.startsWith('working')) days = Math.ceil((amount * 7) / 5);
  else if (unit.startsWith('w')) days = amount * 7;
  else if (unit.startsWith('month')) days = amount * 30;
  else if (unit === 'fortnight') days = 14;
  else days = amount;
  return Math.min(365, Math.max(0, Math.round(days)));
}

/** The longest country name, demonym or "-made"/"-based" form in the text. */
function findCountry(lower: string, vocabulary: ReadonlyMap<string, number>): { code: string; start: number; end: number } | undefined {
  let best: { code: string; start: number; end: number } | undefined;
  const words = lower.split(/(?=[^\p{L}])|(?<=[^\p{L}])/u);
  // Candidate phrases of 1–4 words.
  let offset = 0;
  const positions: { word: string; start: number }[] = [];
  for (const part of words) {
    if (/^\p{L}+$/u.test(part)) positions.push({ word: part, start: offset });
    offset += part.length;
  }
  for (let i = 0; i < positions.length; i += 1) {
    for (let n = Math.min(5, positions.length - i); n >= 1; n -= 1) {
      const first = positions[i] as { word: string; start: number };
      const last = positions[i + n - 1] as { word: string; start: number };
      const end = last.start + last.word.length;
      const phrase = lower.slice(first.start, end).replace(/\s+/g, ' ');
      if (/[^\p{L} ]/u.test(phrase)) continue;
      const code = COUNTRY_NAMES.get(phrase);
      if (code && (!best || end - first.start > best.end - best.start)) {
        // Include a leading "from the"/"made in"/"shipping from" and a trailing "-made"/"-based".
        const before = /(?:\b(?:from|in|made in|ships? from|shipping from|shipped from|based in|located in|origin)\s+(?:the\s+)?)$/.exec(lower.slice(0, first.start));
        const after = /^-?(?:made|based|manufactured|produced)\b/.exec(lower.slice(end));
        // A name that is also a product word ("jersey", "china") counts only with "from", "made in" or "-made".
        if (!before && !after && vocabulary.has(phrase)) continue;
        best = { code, start: before ? first.start - before[0].length : first.start, end: after ? end + after[0].length : end };
      }
    }
  }
  return best;
}

/** The vocabulary's form of a word: itself, its singular or plural, or its closest spelling (typos). */
export function knownWord(word: string, vocabulary: ReadonlyMap<string, number>): string | undefined {
  if (vocabulary.has(word)) return word;
  for (const variant of [word.replace(/ies$/, 'y'), word.replace(/es$/, ''), word.replace(/s$/, ''), `${word}s`, `${word}es`]) {
    if (variant !== word && variant.length > 1 && vocabulary.has(variant)) return word;
  }
  if (word.length < 4 || /\d/.test(word) || FILLERS.has(word)) return undefined;
  const allowed = word.length >= 6 ? 2 : 1;
  let best: { word: string; distance: number; products: number } | undefined;
  for (const [candidate, products] of vocabulary) {
    if (Math.abs(candidate.length - word.length) > allowed || candidate.length < 3) continue;
    const d = distance(word, candidate);
    if (d > allowed) continue;
    // A transposition ("glvoes") costs 2 in Levenshtein distance; prefer the closest, then the commonest.
    if (!best || d < best.distance || (d === best.distance && products > best.products)) best = { word: candidate, distance: d, products };
  }
  // Prefixes typed in part ("nitril" → "nitrile").
  if (!best) {
    const longer = [...vocabulary.keys()].filter((candidate) => candidate.startsWith(word) && candidate.length - word.length <= 2);
    if (longer.length > 0) return closest(word, longer);
  }
  return best?.word;
}

function brandLabel(brand: string, intent: string): string {
  const match = new RegExp(escapeRegExp(brand), 'i').exec(intent);
  return match ? match[0] : brand;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
