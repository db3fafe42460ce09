// Money amounts as people write them: "$0.12", "4.50 EUR", "£3", "300 yen", "EUR 4.50", "12 cents",
// "€1.5k", the symbol after the number ("5 €", "15$", "1000円"), a code glued to it ("EUR0.09"), a
// decimal comma ("0,12 €", "1.234,56 €"), amounts in words ("a dollar", "five euros", "a dime") and
// minor-unit words (cents, pence and p, centimes, ct, Eurocent, Rappen, öre, groszy). A currency is
// always required (symbol, ISO code or ISO 4217 name): amounts in different currencies are never compared.
import { majorToMinor } from '../../schemas/money.ts';
import { CURRENCY_NAMES } from './currency-names.ts';
import { digitsToNumber, wordsToNumber, WORDS_NUMBER } from './numbers.ts';
import { escapeRegExp, type Money } from './reading.ts';

const CURRENCY_SYMBOLS: Record<string, string> = {
  $: 'USD', 'us$': 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '円': 'JPY', '元': 'CNY', '₹': 'INR', '₩': 'KRW', 'a$': 'AUD', 'c$': 'CAD', 'nz$': 'NZD', 'hk$': 'HKD', 's$': 'SGD', 'r$': 'BRL',
  'zł': 'PLN', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', '₫': 'VND', '฿': 'THB', '₱': 'PHP',
};
/** Currency words: ISO 4217 names ("euro", "yen", "swiss franc") with plurals, and common names. */
export const CURRENCY_WORDS: ReadonlyMap<string, string> = (() => {
  const words = new Map<string, string>([
    ['dollar', 'USD'], ['dollars', 'USD'], ['usd', 'USD'], ['bucks', 'USD'], ['cents', 'USD'], ['cent', 'USD'],
    ['euro', 'EUR'], ['euros', 'EUR'], ['eur', 'EUR'], ['eurocents', 'EUR'], ['eurocent', 'EUR'],
    ['pound', 'GBP'], ['pounds', 'GBP'], ['quid', 'GBP'], ['pence', 'GBP'], ['penny', 'GBP'], ['sterling', 'GBP'], ['gbp', 'GBP'],
    ['yen', 'JPY'], ['jpy', 'JPY'], ['yuan', 'CNY'], ['rmb', 'CNY'], ['renminbi', 'CNY'], ['rupees', 'INR'], ['rupee', 'INR'], ['chf', 'CHF'],
    // Minor-unit words of one currency: US cents, the euro's centimes and ct, the Swiss Rappen, the Swedish öre, the Polish grosz.
    ['uscents', 'USD'], ['uscent', 'USD'], ['pennies', 'GBP'], ['centimes', 'EUR'], ['centime', 'EUR'], ['ct', 'EUR'],
    ['rappen', 'CHF'], ['öre', 'SEK'], ['groszy', 'PLN'], ['grosze', 'PLN'], ['grosz', 'PLN'],
  ]);
  for (const [code, isoName] of CURRENCY_NAMES) {
    const name = isoName.toLowerCase();
    if (!words.has(name)) words.set(name, code);
    if (!words.has(`${name}s`)) words.set(`${name}s`, code);
    if (!words.has(code.toLowerCase())) words.set(code.toLowerCase(), code);
  }
  return words;
})();
/** Minor-unit words: the amount is already in the minor unit. */
const MINOR_UNIT_WORDS = new Set(['cent', 'cents', 'pence', 'penny', 'pennies', 'eurocents', 'eurocent', 'uscents', 'uscent', 'centimes', 'centime', 'ct', 'rappen', 'öre', 'groszy', 'grosze', 'grosz']);

export const SYMBOL = '(?:us\\$|a\\$|c\\$|nz\\$|hk\\$|s\\$|r\\$|\\$|€|£|¥|円|元|₹|₩|zł|₽|₺|₪|₫|฿|₱)';
const AMOUNT = '(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|\\.\\d+)\\s*(k\\b)?';
/** Every currency word and code, longest first: the order the patterns try them in. */
export const ALL_CURRENCY_WORDS: readonly string[] = [...CURRENCY_WORDS.keys()].sort((a, b) => b.length - a.length);
const UPPER_CURRENCY_WORDS = ALL_CURRENCY_WORDS.map((word) => word.toUpperCase());

/**
 * The currency words `text` could match, in ALL_CURRENCY_WORDS's order: those it holds in any letter
 * case (a superset of what a case-insensitive pattern finds in it). Patterns are built with these only
 * (currencyWordPattern): inlining all 502 in each of the price patterns made them 7–15 kB apiece, about
 * 8 ms of a cold start to build and 20 ms apiece for V8 to compile at their first use, and a pattern
 * tries its words in the same order either way, so one built from the words a text holds finds what
 * the full one would.
 */
export function currencyWordsIn(text: string): readonly string[] {
  const lower = text.toLowerCase();
  const upper = text.toUpperCase();
  return ALL_CURRENCY_WORDS.filter((word, index) => lower.includes(word) || upper.includes(UPPER_CURRENCY_WORDS[index] as string));
}

/** The currency words as one group followed by a word boundary; none: a group that never matches. */
export function currencyWordPattern(words: readonly string[]): string {
  return words.length === 0 ? '((?!))' : `(${words.map(escapeRegExp).join('|')})\\b`;
}

/**
 * A money amount, its currency one of `currencyWord` (currencyWordPattern). Groups: 1 symbol, 2 amount,
 * 3 k, 4 word | 5 word, 6 amount, 7 k | 8 amount, 9 k, 10 word | 11 amount, 12 k, 13 symbol after it.
 */
export function moneyPattern(currencyWord: string): string {
  return `(?:(${SYMBOL})\\s?${AMOUNT}(?:\\s?${currencyWord})?|\\b${currencyWord}\\s?${AMOUNT}|${AMOUNT}\\s?${currencyWord}|${AMOUNT}\\s?(${SYMBOL}))`;
}
export const MONEY_GROUPS = 13;

/**
 * Patterns built from a set of currency words, kept for the next text that holds the same ones (most
 * hold none or one). Bounded: a text holding many currency words cannot grow it without end.
 */
export function patternCache<T>(build: (currencyWord: string) => T, capacity = 64): (words: readonly string[]) => T {
  const cache = new Map<string, T>();
  return (words) => {
    const key = words.join('|');
    let built = cache.get(key);
    if (built === undefined) {
      if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
      built = build(currencyWordPattern(words));
      cache.set(key, built);
    }
    return built;
  };
}

/** The currency a word names ("euros" → EUR), if any. */
export function currencyOf(word: string): string | undefined {
  return CURRENCY_WORDS.get(word.toLowerCase());
}

/** Words for a hundredth of whichever currency the request names ("budget in EUR, max 8 cents"); USD when it names none. */
const CENT_WORDS = new Set(['cent', 'cents']);
/** Currencies whose hundredth is called a cent. */
const CENT_CURRENCIES = new Set(['USD', 'EUR', 'AUD', 'CAD', 'NZD', 'HKD', 'SGD']);

const statedCurrencyPattern = patternCache((currencyWord) => new RegExp(`(${SYMBOL})|\\b${currencyWord}`, 'gi'));

/**
 * The one currency a request names by symbol, code or word (minor-unit words aside), if it names exactly
 * one. `words`: the currency words the text holds, when the caller has them already (currencyWordsIn).
 */
export function statedCurrency(text: string, words: readonly string[] = currencyWordsIn(text)): string | undefined {
  const named = new Set<string>();
  for (const match of text.matchAll(statedCurrencyPattern(words))) {
    if (match[1]) named.add(CURRENCY_SYMBOLS[match[1].toLowerCase()] as string);
    else if (match[2] && !CENT_WORDS.has(match[2].toLowerCase())) named.add(CURRENCY_WORDS.get(match[2].toLowerCase()) as string);
  }
  return named.size === 1 ? [...named][0] : undefined;
}

/**
 * The amount of a MONEY match whose groups start after `offset`, in the currency's minor unit; "cents"
 * are hundredths of `centsOf` (the currency the request names) when it has cents, else of the dollar.
 */
export function moneyFrom(match: RegExpExecArray | RegExpMatchArray, offset: number, centsOf?: string): Money | undefined {
  const g = (index: number) => match[offset + index];
  let currency: string | undefined;
  let amountText: string | undefined;
  let k: string | undefined;
  let word: string | undefined;
  if (g(1)) {
    currency = CURRENCY_SYMBOLS[(g(1) as string).toLowerCase()];
    [amountText, k, word] = [g(2), g(3), g(4)];
  } else if (g(5)) {
    [word, amountText, k] = [g(5), g(6), g(7)];
  } else if (g(13)) {
    currency = CURRENCY_SYMBOLS[(g(13) as string).toLowerCase()];
    [amountText, k] = [g(11), g(12)];
  } else {
    [amountText, k, word] = [g(8), g(9), g(10)];
  }
  if (word) {
    const lower = word.toLowerCase();
    const named = CURRENCY_WORDS.get(lower);
    if (!named) {
      if (!currency) return undefined;
    } else {
      if (currency && currency !== named && !MINOR_UNIT_WORDS.has(lower)) return undefined;
      currency = CENT_WORDS.has(lower) && centsOf !== undefined && CENT_CURRENCIES.has(centsOf) ? centsOf : named;
      if (MINOR_UNIT_WORDS.has(lower)) {
        const minor = digitsToNumber(`${amountText ?? ''}${k ?? ''}`);
        return minor !== undefined && Number.isInteger(minor) ? { amount: minor, currency } : undefined;
      }
    }
  }
  if (!currency || !amountText) return undefined;
  const major = digitsToNumber(`${amountText}${k ?? ''}`);
  if (major === undefined) return undefined;
  const exact = majorToMinor(String(major), currency) ?? majorToMinor(major.toFixed(6).replace(/0+$/, '').replace(/\.$/, ''), currency);
  if (exact !== undefined) return { amount: exact, currency };
  // More decimals than the currency has (¥1.5): round to its minor unit.
  const digits = currency === 'JPY' || currency === 'KRW' ? 0 : 2;
  return { amount: Math.round(major * 10 ** digits), currency };
}

/** ISO codes an amount may be glued to in any letter case ("eur0.09"); any other code only in capitals ("CHF5"). */
const COMMON_CODES = 'eur|usd|gbp|jpy|chf';
const GLUED_BEFORE = new RegExp(`(?<![\\p{L}\\d])(${COMMON_CODES}|[A-Z]{3})(?=\\d)`, 'giu');
const GLUED_AFTER = new RegExp(`(?<=\\d)(${COMMON_CODES}|[A-Z]{3})(?![\\p{L}\\d])`, 'giu');
const isCode = (word: string) => word.length === 3 && (word === word.toUpperCase() || new RegExp(`^(?:${COMMON_CODES})$`, 'i').test(word)) && CURRENCY_WORDS.get(word.toLowerCase()) === word.toUpperCase();
/** "1.234,56": a dot for thousands and a comma for decimals. */
const DOTTED_THOUSANDS = /(?<![\d.,])(\d{1,3}(?:\.\d{3})+),(\d{1,2})(?![\d,])/g;
/** "0,12": a decimal comma (one or two digits after it: "2,500" is two thousand five hundred). */
const DECIMAL_COMMA = /(?<![\d.,])(\d+),(\d{1,2})(?![\d,])/g;
const currencyNear = patternCache((currencyWord) => ({
  after: new RegExp(`^\\s?(?:${SYMBOL}|${currencyWord})`, 'iu'),
  before: new RegExp(`(?:${SYMBOL}|(?<![\\p{L}])${currencyWord.replace(/\\b$/, '')})\\s?$`, 'iu'),
}));
/** Currency words an amount in words may come before ("five euros", "a dollar"). */
const MONEY_NOUNS = 'dollars?|bucks?|euros?|pounds?|quid|cents?|pence|yen';
const WORDS_AMOUNT = new RegExp(`\\b(${WORDS_NUMBER}|an?|one)\\s+(${MONEY_NOUNS})\\b`, 'gi');
/** "a pound" is a weight too: money only after a word that caps a price. */
const CAP_BEFORE = /\b(?:under|below|less than|lower than|cheaper than|at most|max(?:imum)?|up to|no more than|not more than|for)\s+$/i;

/**
 * Money as people write it, in the forms the price patterns read: a code glued to the amount set apart
 * ("EUR0.09" → "EUR 0.09"), a decimal comma beside a currency as a point ("0,12 €" → "0.12 €",
 * "1.234,56 €" → "1234.56 €"), amounts in words in digits ("a dollar" → "1 dollar", "five euros" →
 * "5 euros", "a dime" → "10 cents"), and "US cents" as one word.
 */
export function moneyAsWritten(text: string): string {
  text = text
    .replace(GLUED_BEFORE, (code: string) => (isCode(code) ? `${code} ` : code))
    .replace(GLUED_AFTER, (code: string) => (isCode(code) ? ` ${code}` : code))
    .replace(/\bU\.?S\.?[\s-]?cents?\b/gi, 'uscents')
    .replace(/\ba dime\b/gi, '10 cents')
    .replace(/\ba nickel\b/gi, '5 cents');
  text = text.replace(WORDS_AMOUNT, (whole: string, amount: string, noun: string, at: number) => {
    const value = /^(?:an?|one)$/i.test(amount) ? 1 : wordsToNumber(amount);
    if (value === undefined || (/^pounds?$/i.test(noun) && !CAP_BEFORE.test(text.slice(0, at)))) return whole;
    return `${value} ${noun}`;
  });
  if (!text.includes(',')) return text;
  const near = currencyNear(currencyWordsIn(text));
  const besideCurrency = (at: number, length: number) => near.after.test(text.slice(at + length)) || near.before.test(text.slice(Math.max(0, at - 12), at));
  text = text.replace(DOTTED_THOUSANDS, (whole: string, integer: string, decimals: string, at: number) => (besideCurrency(at, whole.length) ? `${integer.replace(/\./g, '')}.${decimals}` : whole));
  return text.replace(DECIMAL_COMMA, (whole: string, integer: string, decimals: string, at: number) => (besideCurrency(at, whole.length) ? `${integer}.${decimals}` : whole));
}
