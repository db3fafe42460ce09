// The quantity: "500 nitrile gloves", "10k", "2,500 pcs", "five hundred", "a dozen", "qty 300",
// "10 x 27-inch monitors", "3 boxes of 100 gloves" (300: catalog quantities are in units), "40 boxes of
// wood screws", "need 200", "20 kg of coffee". Never a number glued to a measure ("18 V", "12 oz",
// "1kg"), a catalog code ("4K", "6204"), or a size ("size 9"). A count and its unit ("40 boxes") are one
// phrase; a sales unit with no count before it ("coffee beans 20 kg") is the quantity unless some
// product names it as a size ("floor cleaner 5 litre").
import { NUMBER, toNumber, WORDS_NUMBER } from './numbers.ts';
import { cut, type Extractor, type IntentLexicon } from './reading.ts';

/** Words for "a count of things" after a number. */
export const COUNT_UNITS = '(?:pcs|pieces?|units?|items?|pairs?|boxe?s|box|rolls?|packs?|packets?|packages?|cases?|cartons?|reams?|bottles?|sets?|bags?|pallets?|sheets?|drums?|tubs?|tins?|cans?|jars?|tubes?|spools?|reels?|bundles?|each|ea|nos)';
/** Units sold by measure: a number before them is a quantity or a size. */
const SALES_UNITS = '(?:kgs?|kilos?|kilograms?|litres?|liters?|ltrs?|l|tons?|tonnes?)';
/** Units that make a number a specification ("18 V", "12 oz", "80 gsm", "27-inch", "4x40"). */
const SPEC_AFTER = /^(?:-?\s?(?:v|volts?|w|watts?|mm|cm|m|km|in|inch|inches|ft|feet|foot|oz|ml|l|gsm|g|grams?|lbs?|mah|gb|tb|mb|hz|ply|grit|microns?|mic|ports?|way|gang|pins?|cores?|channels?|litres?|liters?|kgs?|kilos?|kilograms?|tons?|tonnes?|metres?|meters?|°|%|"|'|k\b|x\d|mp)\b|%|"|x\d)/i;
const NOT_AFTER = /\b(?:size|sizes|cat|type|class|level|grade|vg|no|number|model|din|iso|en|m|with|version|gen|series|pack|box|case|(?:box|pack|case|bag|set|roll|carton|tube|tin)\s+of)\s*$/i;

interface Candidate {
  value: number;
  /** The text to take out. */
  span: string;
  at: number;
}

function valueOf(token: string, lexicon: IntentLexicon): number | undefined {
  const trimmed = token.trim();
  // A catalog word with digits and letters ("4k", "6204x") is a code, not a count.
  if (/\d/.test(trimmed) && /[a-z]/i.test(trimmed) && lexicon.vocabulary.has(trimmed.toLowerCase().replace(/\s/g, ''))) return undefined;
  const value = toNumber(trimmed);
  return value !== undefined && Number.isInteger(value) && value >= 1 && value <= 1_000_000_000 ? value : undefined;
}

/** "10 dozen": dozens of units. */
const DOZENS = /(?:^|\s)(\d+)\s+dozen\b/gi;
/**
 * "two pallets of copy paper", "5 cartons of gloves": a shipping container with no count inside gives no
 * quantity (how many units a pallet holds is the seller's to say); the phrase is not a product word either.
 */
const CONTAINERS = new RegExp(`(?:^|\\s)(?:${NUMBER})\\s+(?:pallets?|cartons?|containers?|truckloads?|skids?|crates?)\\s+of\\b(?!\\s+${NUMBER}\\b)`, 'gi');
/** "500 sheets a ream": how many are in one sales unit, not how many are wanted. */
const PER_UNIT_AFTER = new RegExp(`^\\s*${COUNT_UNITS}?\\s*(?:a|an|per|each|in\\s+(?:a|each|every))\\s+(?:ream|box|pack|packet|case|carton|roll|bag|set|tube|bottle|pallet)\\b`, 'i');
/** "500 sheets a ream", "12 per box": the contents of one sales unit, a specification, not a quantity or a product word. */
const PER_UNIT_SPEC = new RegExp(`(?:^|\\s)\\d+\\s*${COUNT_UNITS}?\\s*(?:a|an|per|each|in\\s+(?:a|each|every))\\s+(?:ream|box|pack|packet|case|carton|roll|bag|set|tube|bottle|pallet)\\b`, 'gi');
/** "budget 300 EUR total for 10", "for 10, under $5": a count after "for" standing alone. */
const FOR_COUNT = new RegExp(`\\bfor\\s+(${NUMBER})(?=\\s*(?:[,;.!?]|$))`, 'gi');
/** "box of 100 nitrile gloves", "I need a pack of 24 AA batteries": one pack, before the product, is its count. */
const ONE_PACK = new RegExp(`^\\s*(?:(?:i|we)\\s+)?(?:(?:need|want|order|buy|require)\\s+)?(?:an?\\s+|one\\s+)?(?:box|pack|packet|case|carton|bag)\\s+of\\s+(\\d{1,3}(?:,\\d{3})+|\\d+)\\s+(?=\\p{L})`, 'giu');
const PACKS = new RegExp(`(?:^|\\s)(${NUMBER})\\s*(?:x\\s+)?(${COUNT_UNITS})\\s+of\\s+(${NUMBER})(?:\\s*(?:${COUNT_UNITS}))?(?=\\s)`, 'gi');
const LABELLED = new RegExp(`\\b(?:qty|quantity|moq|amount|count)\\s*(?:of\\s*)?[:=]?\\s*(${NUMBER})`, 'gi');
/** "notebooks x 50": the count after the product. */
const TIMES_AFTER = new RegExp(`(?<!(?:^|\\s)[\\d.,]+\\s?)(?:^|\\s)(?:x|×)\\s?(\\d+)(?![\\d.]|\\s?[x×]\\s?\\d)`, 'gi');
/** "10 x 27-inch monitors", not "600 x 600 mm" (a size). */
const TIMES = new RegExp(`(?:^|\\s)(${NUMBER})\\s*(?:x|×)\\s+(?=\\S)(?!\\d+(?:[.,]\\d+)?\\s?(?:mm|cm|m)?\\b(?:\\s*(?:x|×|[,;.]|$)|\\s?(?:mm|cm)\\b))`, 'gi');
const WITH_UNIT = new RegExp(`(?:^|\\s)(${NUMBER})\\s*(?=(${COUNT_UNITS})\\b)(${COUNT_UNITS})(\\s+of\\b)?`, 'gi');
const SALES = new RegExp(`(?:^|\\s)(\\d+(?:\\.\\d+)?)\\s?(${SALES_UNITS})\\b(\\s+of\\b)?`, 'gi');
const AFTER_VERB = new RegExp(`\\b(?:need|needs|want|wants|buy|order|ordering|purchase|source|get|looking for|require|requires|request|requesting)\\s+(?:about\\s+|around\\s+|roughly\\s+|approximately\\s+|some\\s+)?(${NUMBER})(?=\\s|$)`, 'gi');
const BARE = new RegExp(`(?:^|\\s)(${NUMBER})(?=\\s+(?:[a-z]|\\d+\\s*[a-z]))`, 'gi');
const BARE_WORDS = new RegExp(`(?<!\\d\\s?)(?:^|\\s)(${WORDS_NUMBER})(?=\\s)`, 'gi');
/** A number standing alone between commas or at the end ("wooden pallets, 20, from Poland"). */
const LONE = /(?:^|[\s,;:])((?:\d{1,3}(?:,\d{3})+|\d+)(?:\s?(?:k|thousand|million)\b)?)(?=\s*(?:[,;.]|$))/gi;

function first(text: string, pattern: RegExp, accept: (match: RegExpExecArray) => Candidate | undefined): Candidate | undefined {
  for (const match of text.matchAll(pattern)) {
    const candidate = accept(match);
    if (candidate) return candidate;
  }
  return undefined;
}

export const readQuantity: Extractor = ({ text, reading }, lexicon) => {
  if (reading.quantity !== null) return { text, reading };
  text = text.replace(CONTAINERS, ' ').replace(PER_UNIT_SPEC, ' ');
  const simple = (match: RegExpExecArray): Candidate | undefined => {
    const at = match.index ?? 0;
    const before = text.slice(0, at + (match[0].length - match[0].trimStart().length));
    if (NOT_AFTER.test(before)) return undefined;
    const after = text.slice(at + match[0].length);
    const value = valueOf(match[1] as string, lexicon);
    // "600 x 600 mm" is a size; "50 million" is read whole elsewhere.
    if (value === undefined || /^\s*(?:k|thousand|million)\b/i.test(after) || /^\s*[x×]\s*\d/i.test(after)) return undefined;
    // "6204 bearings": a catalog code that products hold together with the next word, not a count.
    const code = (match[1] as string).trim();
    const next = /^\s*([\p{L}\d][\p{L}\d-]*)/u.exec(after)?.[1]?.toLowerCase();
    if (/^\d{4,}$/.test(code) && next && lexicon.vocabulary.has(code) && lexicon.hasAll([code, next])) return undefined;
    if (!/^\s*(?:x|×)\s/i.test(after) && SPEC_AFTER.test(after.trimStart()) && !new RegExp(`^\\s*${COUNT_UNITS}\\b`, 'i').test(after)) return undefined;
    // The rest of the match is the unit word of WITH_UNIT; what follows it says "per ream".
    if (PER_UNIT_AFTER.test(`${match[0].slice((match[1] as string).length + match[0].indexOf(match[1] as string))}${after}`)) return undefined;
    return { value, span: match[0], at };
  };
  const candidate =
    first(text, DOZENS, (match) => {
      const value = valueOf(match[1] as string, lexicon);
      return value !== undefined ? { value: value * 12, span: match[0], at: match.index ?? 0 } : undefined;
    }) ??
    first(text, ONE_PACK, (match) => {
      const value = valueOf(match[1] as string, lexicon);
      return value !== undefined ? { value, span: match[0], at: match.index ?? 0 } : undefined;
    }) ??
    first(text, PACKS, (match) => {
      const count = valueOf(match[1] as string, lexicon);
      const each = valueOf(match[3] as string, lexicon);
      return count !== undefined && each !== undefined ? { value: count * each, span: match[0], at: match.index ?? 0 } : undefined;
    }) ??
    first(text, LABELLED, simple) ??
    first(text, TIMES, (match) => {
      // "size 44 x 6 pairs": the size is no count.
      if (NOT_AFTER.test(text.slice(0, (match.index ?? 0) + (match[0].length - match[0].trimStart().length)))) return undefined;
      const value = valueOf(match[1] as string, lexicon);
      return value !== undefined ? { value, span: match[0], at: match.index ?? 0 } : undefined;
    }) ??
    first(text, TIMES_AFTER, (match) => {
      const value = valueOf(match[1] as string, lexicon);
      return value !== undefined ? { value, span: match[0], at: match.index ?? 0 } : undefined;
    }) ??
    first(text, WITH_UNIT, simple) ??
    first(text, AFTER_VERB, simple) ??
    first(text, FOR_COUNT, simple) ??
    first(text, BARE_WORDS, simple) ??
    first(text, SALES, (match) => {
      // "floor cleaner 5 litre": some product is sold in that size, so it is a size, not a quantity ("20 kg of" always is one).
      const unit = (match[2] as string).toLowerCase();
      const spellings = /^l/.test(unit) ? ['litre', 'liter', 'l'] : /^k/.test(unit) ? ['kg', 'kilo'] : [unit];
      if (!match[3] && spellings.some((spelling) => lexicon.hasPhrase([match[1] as string, spelling]))) return undefined;
      return simple(match);
    }) ??
    first(text, BARE, simple) ??
    first(text, LONE, (match) => {
      // "bearings 6204": a catalog code that products hold together with the word before it.
      const before = /([\p{L}][\p{L}\d-]*)\W*$/u.exec(text.slice(0, match.index ?? 0))?.[1]?.toLowerCase();
      const number = match[1] as string;
      if (before && lexicon.vocabulary.has(number) && lexicon.hasAll([number, before])) return undefined;
      // "bearings 6210": four or more digits, not a round count, right after a word, is a model number.
      if (before && /^\d{4,}$/.test(number) && Number(number) % 50 !== 0 && /\p{L}\s*$/u.test(text.slice(0, match.index ?? 0) + match[0].slice(0, match[0].indexOf(number)))) return undefined;
      return simple(match);
    });
  if (!candidate) return { text, reading };
  return { text: cut(text, candidate.span, candidate.at), reading: { ...reading, quantity: candidate.value } };
};
