// A word's catalog form: itself or its singular/plural, a British/American spelling variant
// ("sanitiser" → sanitizer, "colour" → color), the catalog's word for a synonym ("display" → monitor,
// only when the catalog lacks the word itself; the thesaurus ships in search-words.json), or the nearest catalog word for a typo ("glvoes" →
// gloves). A typo is corrected only when the word is neither a catalog word nor English: "bulk" is a
// word, not a misspelt "bulb".
import { closest, distance } from 'fastest-levenshtein';

/** The vocabulary's form of a word or of its singular/plural (the index stems both alike). */
export function inflectedForm(word: string, vocabulary: ReadonlyMap<string, number>): string | undefined {
  if (vocabulary.has(word)) return word;
  // The index's stemmer takes these endings off alike: "concentrate" finds "concentrated", "lights" finds "lighting".
  const base = word.replace(/ies$/, 'y').replace(/(?<=[sxz]|ch|sh)es$/, '').replace(/s$/, '');
  const variants = [base, word.replace(/es$/, ''), `${word}s`, `${word}es`, word.replace(/y$/, 'ies'), `${base}d`, `${base}ed`, `${base}ing`];
  if (/e$/.test(base)) variants.push(`${base.slice(0, -1)}ing`);
  if (/ed$/.test(base)) variants.push(base.slice(0, -2), base.slice(0, -1));
  if (/ing$/.test(base)) variants.push(base.slice(0, -3), `${base.slice(0, -3)}e`);
  for (const variant of variants) {
    if (variant !== word && variant.length > 1 && vocabulary.has(variant)) return variant;
  }
  // Endings the index's stemmer also takes off alike: "disinfecting" finds "disinfectant", "sanitizing" "sanitizer".
  const root = /^(.{4,}?)(?:ing|ant|ants|ion|ions|ed|(?<=iz)ers?)$/.exec(word)?.[1];
  if (root) {
    // "-izer" and "-izing" share a stem; "-er" elsewhere names another thing ("charger", not "charging").
    for (const ending of ['ant', 'ants', 'ing', 'ion', 'ed', ...(/iz$/.test(root) ? ['er', 'ers'] : [])]) {
      for (const stem of [root, `${root}e`]) {
        const variant = `${stem}${ending}`.replace(/ee(?=[dr]|rs$)/, 'e');
        if (variant !== word && vocabulary.has(variant)) return variant;
      }
    }
  }
  return undefined;
}

/** British/American spelling rules, both ways: -ise/-ize, -isation/-ization, -our/-or, -tre/-ter, -yse/-yze, and a few words. */
const SPELLING_RULES: readonly [RegExp, string][] = [
  [/is(e|es|ed|er|ers|ing|ation|ations)$/, 'iz$1'],
  [/iz(e|es|ed|er|ers|ing|ation|ations)$/, 'is$1'],
  [/our(s|ed|ing|less|ful)?$/, 'or$1'],
  [/([^aeiou])or(s|ed|ing|less|ful)?$/, '$1our$2'],
  [/tre(s)?$/, 'ter$1'],
  [/ter(s)?$/, 'tre$1'],
  [/ys(e|es|ed|ing)$/, 'yz$1'],
  [/yz(e|es|ed|ing)$/, 'ys$1'],
  [/ogue(s)?$/, 'og$1'],
  [/lled$/, 'led'],
  [/lling$/, 'ling'],
];
const SPELLING_WORDS: Record<string, string> = { grey: 'gray', gray: 'grey', aluminium: 'aluminum', aluminum: 'aluminium', tyre: 'tire', tyres: 'tires', jewellery: 'jewelry', cheque: 'check', mould: 'mold', moulded: 'molded', plough: 'plow', sulphur: 'sulfur', fibre: 'fiber', fibreglass: 'fiberglass', fiberglass: 'fibreglass', storey: 'story', kerb: 'curb', disc: 'disk', programme: 'program' };

export function spellingVariant(word: string, vocabulary: ReadonlyMap<string, number>): string | undefined {
  const candidates = [SPELLING_WORDS[word], ...SPELLING_RULES.map(([pattern, replacement]) => (pattern.test(word) ? word.replace(pattern, replacement) : undefined))];
  for (const candidate of candidates) {
    if (!candidate || candidate === word) continue;
    const form = inflectedForm(candidate, vocabulary);
    if (form) return form;
  }
  return undefined;
}


/**
 * The catalog's words for a word it lacks, each a word or a phrase whose every word the catalog has.
 * `synonyms` are groups of words catalogs use for the same product (lib/search-words.ts); they are read
 * only when the catalog lacks the buyer's word: where it has both, each finds its own products.
 */
export function synonymForms(word: string, vocabulary: ReadonlyMap<string, number>, synonyms: readonly (readonly string[])[]): string[] {
  const forms: string[] = [];
  const singular = word.replace(/ies$/, 'y').replace(/(?<=[sxz]|ch|sh)es$/, '').replace(/s$/, '');
  for (const group of synonyms) {
    if (!group.includes(word) && !group.includes(singular)) continue;
    for (const other of group) {
      if (other === word) continue;
      const words = other.split(' ').map((part) => inflectedForm(part, vocabulary));
      if (words.every(Boolean) && !forms.includes(words.join(' '))) forms.push(words.join(' '));
    }
  }
  return forms;
}

const phrasesOf = new WeakMap<readonly (readonly string[])[], readonly string[]>();
/** Multi-word synonyms as one key ("hi vis"), longest first, for the word reader to look for before single words. */
export function synonymPhrases(synonyms: readonly (readonly string[])[]): readonly string[] {
  let phrases = phrasesOf.get(synonyms);
  if (!phrases) {
    phrases = [...new Set(synonyms.flat().filter((entry) => entry.includes(' ')))].sort((a, b) => b.length - a.length);
    phrasesOf.set(synonyms, phrases);
  }
  return phrases;
}

/** Whether two words differ only by two neighbouring letters swapped ("vinly", vinyl). */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let at = 0;
  while (a[at] === b[at]) at += 1;
  return a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}

/**
 * The nearest catalog word for a typo: within 1 edit (4–5 letters) or 2 (6+), the closest and then the
 * commonest — two neighbouring letters swapped count as one edit ("vinly" → vinyl, "cabel" → cable); or a
 * catalog word it begins ("nitril" → nitrile). Callers ask only for words that are neither catalog words
 * nor English.
 */
export function typoCorrection(word: string, vocabulary: ReadonlyMap<string, number>): string | undefined {
  if (word.length < 4 || /\d/.test(word)) return undefined;
  const allowed = word.length >= 6 ? 2 : 1;
  let best: { word: string; distance: number; products: number } | undefined;
  for (const [candidate, products] of vocabulary) {
    if (Math.abs(candidate.length - word.length) > allowed || candidate.length < 3 || /\d/.test(candidate)) continue;
    const d = swapped(word, candidate) ? 1 : distance(word, candidate);
    if (d > allowed) continue;
    // A transposition ("glvoes") costs 2 in Levenshtein distance; prefer the closest, then the commonest.
    if (!best || d < best.distance || (d === best.distance && products > best.products)) best = { word: candidate, distance: d, products };
  }
  if (best) return best.word;
  const longer = [...vocabulary.keys()].filter((candidate) => candidate.startsWith(word) && candidate.length - word.length <= 2);
  return longer.length > 0 ? closest(word, longer) : undefined;
}
