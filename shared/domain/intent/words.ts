// The words left once every other extractor has taken its phrases: noise words are dropped, and each
// other word becomes a product term — in the catalog's spelling where it has one (plural, spelling
// variant, synonym, typo), joined or split the way the catalog writes it ("Cat 6" → cat6, "usbc" →
// "usb c", "USB-C" → the phrase "usb c"), and otherwise as typed: an English word the catalog lacks is
// still a product word (it matches nothing: "ear plugs"), and a word that is neither is also reported
// as not understood. "X or Y" is one term that either satisfies. Prepositions and commas end a noun
// phrase (the first one's last plain noun is the head: ../search.ts).
import { cut, formKnown, tokens, type Correction, type Extractor, type IntentLexicon, type Term } from './reading.ts';
import { wordsToNumber } from './numbers.ts';
import { inflectedForm, spellingVariant, synonymForms, synonymPhrases, typoCorrection } from './spelling.ts';

/** Words that end a noun phrase ("of" does not: "refills of floor cleaner" is about floor cleaner). */
const PREPOSITIONS = new Set(['for', 'with', 'in', 'from', 'by', 'at', 'on', 'to', 'without', 'under', 'over', 'near', 'into', 'within', 'via', 'including', 'per', 'that', 'which', 'suitable', 'compatible']);
/** Second words of two-word describing phrases ("heavy duty", "food safe", "long life"). */
const DESCRIBING_SECOND = new Set(['duty', 'free', 'resistant', 'proof', 'safe', 'life', 'speed', 'noise', 'wall']);
const SIZES = /^(?:x{0,3}s|m|x{0,4}l|\dxl|\dxs|small|medium|large|mini|jumbo)$/;
/** Endings of describing words: such a word is a modifier, never the head of a noun phrase. */
const DESCRIBING = /(?:ed|less|free|able|ible|ful|ous|ive|ic|ical|proof|resistant|ish)$/;

/** Colours that are also things ("hand cream", "olive oil"): a colour only where the catalog uses the word. */
const COLOUR_NOUNS = new Set(['cream', 'olive', 'lime', 'lemon', 'orange', 'charcoal', 'ivory', 'gold', 'silver', 'salmon', 'chocolate', 'rose', 'wine', 'mint', 'peach', 'cherry', 'natural']);
/** Second parts of hyphenated describing words ("spiral-bound", "water-based", "zinc-plated"): the first part describes. */
const DESCRIBING_PARTS = new Set(['bound', 'based', 'coated', 'plated', 'lined', 'style', 'type', 'grade', 'shaped', 'sized', 'sealed', 'backed', 'tipped', 'treated', 'finished', 'look', 'effect', 'size', 'sized']);
/** Prefixes written apart that belong to the next word ("anti fog" → anti-fog). */
const PREFIXES = new Set(['anti', 'non', 'multi', 'semi', 'pre', 'ultra']);

/** A describing ending on a stem of three letters or more ("washable", not "cable"; "coated", not "shed"). */
function describing(word: string): boolean {
  const ending = DESCRIBING.exec(word);
  return ending !== null && word.length - ending[0].length >= 3;
}

/** Whether a term describes a product rather than names it (a size, code, colour, measure or adjective). */
export function isModifier(word: string, colours: ReadonlySet<string>): boolean {
  return /\d/.test(word) || /-[a-z]$/.test(word) || colours.has(word) || SIZES.test(word) || describing(word) || /^(?:anti|non|extra|super|heavy|light|ultra|multi|semi|pre)-/.test(word);
}

/** Whether a word, or its singular, is English. */
export function isEnglish(word: string, english: ReadonlySet<string>): boolean {
  return english.has(word) || [word.replace(/ies$/, 'y'), word.replace(/es$/, ''), word.replace(/s$/, '')].some((form) => form !== word && english.has(form));
}

/** A typed word as the index knows it: itself (or its singular/plural), else its typo corrected, unless it is English (structured search's query words, an RFQ's keywords). */
export function queryWord(word: string, vocabulary: ReadonlyMap<string, number>, english: ReadonlySet<string>): string {
  if (inflectedForm(word, vocabulary) || isEnglish(word, english)) return word;
  return typoCorrection(word, vocabulary) ?? word;
}

/**
 * The catalog's word for a typed word, or undefined when it has none: itself or its singular/plural, a
 * British/American variant, or its typo corrected unless it is English (an RFQ's title words).
 */
export function catalogWord(word: string, vocabulary: ReadonlyMap<string, number>, english: ReadonlySet<string>): string | undefined {
  return inflectedForm(word, vocabulary) ?? spellingVariant(word, vocabulary) ?? (isEnglish(word, english) ? undefined : typoCorrection(word, vocabulary));
}

interface Resolved {
  terms: Term[];
  corrections: Correction[];
  unparsed: string[];
}

function term(word: string, forms: string[], lexicon: IntentLexicon, phrase: number): Term {
  const thing = COLOUR_NOUNS.has(word) && !lexicon.vocabulary.has(word);
  return { word, forms, known: forms.some((form) => formKnown(form, lexicon.vocabulary)), modifier: !thing && isModifier(word, lexicon.colours), phrase };
}

/** One word's terms (a hyphenated word may give several). */
export function resolveWord(raw: string, lexicon: IntentLexicon, phrase: number): Resolved {
  // Contractions ("I'd", "we're", "don't") say nothing about the product.
  if (/^\p{L}+'(?:d|ll|m|re|ve|t)$/iu.test(raw)) return { terms: [], corrections: [], unparsed: [] };
  const word = raw.toLowerCase().replace(/'s$/, '').replace(/^'+|'+$/g, '');
  const { vocabulary, english } = lexicon;
  const none: Resolved = { terms: [], corrections: [], unparsed: [] };
  if (word.length === 0 || lexicon.noise.has(word)) return none;
  // A number left over is a product word only as the catalog writes it ("8.8" in "grade 8.8") or as a
  // model number of four digits or more ("6210"), which may then be dropped visibly.
  if (/^\d+(?:[.,]\d+)?$/.test(word)) return vocabulary.has(word) || /^\d{4,}$/.test(word) || (/[.,]/.test(word) && lexicon.hasPhrase(tokens(word))) ? { ...none, terms: [term(word, [word], lexicon, phrase)] } : none;
  // A number in words left over ("with two batteries") says how many of a part, not which product.
  if (wordsToNumber(word) !== undefined) return none;
  const direct = inflectedForm(word, vocabulary);
  // A typed word that is no English word but a misspelt inflection of the catalog's ("batterys" for
  // battery, "cordles" for cordless): read, and reported, as the catalog's.
  if (direct && direct !== word && !isEnglish(word, english)) {
    return { ...none, terms: [term(direct, [direct], lexicon, phrase)], corrections: [{ from: word, to: direct, kind: 'spelling' }] };
  }
  if (direct) return { ...none, terms: [term(word, [direct], lexicon, phrase)] };
  // "M10x50": a thread the catalog knows and a length.
  const threadAndLength = /^([a-z]+\d+)x(\d+)$/.exec(word);
  if (threadAndLength && vocabulary.has(threadAndLength[1] as string)) {
    const length = `${threadAndLength[2] as string} mm`;
    return { ...none, terms: [term(threadAndLength[1] as string, [threadAndLength[1] as string], lexicon, phrase), { ...term(length, [length, `${threadAndLength[2] as string}mm`], lexicon, phrase), modifier: true }] };
  }
  if (word.includes('-') || word.includes('.') || word.includes("'")) {
    const parts = tokens(word);
    const joined = parts.join('');
    if (vocabulary.has(joined)) return { ...none, terms: [term(word, [joined, parts.join(' ')], lexicon, phrase)] };
    const forms = parts.map((part) => inflectedForm(part, vocabulary));
    // Parts the catalog has ("6205-2RS") are one phrase only where it writes them together; else each on its own ("letter-size").
    if (parts.length > 1 && forms.every(Boolean) && lexicon.hasPhrase(forms as string[])) return { ...none, terms: [term(word, [forms.join(' ')], lexicon, phrase)] };
    // "anti-fog", "non-slip": one describing word, whether or not the catalog has it.
    if (parts.length === 2 && PREFIXES.has(parts[0] as string)) return { ...none, terms: [{ ...term(word, [parts.join(' ')], lexicon, phrase), modifier: true }] };
    // "spiral-bound": the catalog's "spiral", describing.
    if (parts.length === 2 && forms[0] && DESCRIBING_PARTS.has(parts[1] as string)) return { ...none, terms: [{ ...term(word, [forms[0]], lexicon, phrase), modifier: true }] };
    const synonyms = synonymForms(parts.join(' '), vocabulary, lexicon.synonyms);
    if (synonyms.length > 0) return { ...none, terms: [term(word, synonyms, lexicon, phrase)], corrections: [{ from: word, to: synonyms[0] as string, kind: 'synonym' }] };
    // Read part by part ("hi-vis", "extra-large"): each part on its own.
    const results = parts.map((part) => resolveWord(part, lexicon, phrase));
    return { terms: results.flatMap((r) => r.terms), corrections: results.flatMap((r) => r.corrections), unparsed: results.flatMap((r) => r.unparsed) };
  }
  const variant = spellingVariant(word, vocabulary);
  if (variant) return { ...none, terms: [term(word, [variant], lexicon, phrase)], corrections: [{ from: word, to: variant, kind: 'variant' }] };
  const synonyms = synonymForms(word, vocabulary, lexicon.synonyms);
  if (synonyms.length > 0) return { ...none, terms: [term(word, synonyms, lexicon, phrase)], corrections: [{ from: word, to: synonyms[0] as string, kind: 'synonym' }] };
  // Two catalog words the catalog writes apart ("sledgehammers" → "sledge hammers"), English or not.
  for (let at = 3; at <= word.length - 3; at += 1) {
    const [head, tail] = [word.slice(0, at), word.slice(at)];
    const tailForm = inflectedForm(tail, vocabulary);
    if (!/\d/.test(word) && vocabulary.has(head) && tailForm && lexicon.hasPhrase([head, tailForm])) {
      return { ...none, terms: [term(word, [`${head} ${tailForm}`], lexicon, phrase)], corrections: [{ from: word, to: `${head} ${tailForm}`, kind: 'spelling' }] };
    }
  }
  if (isEnglish(word, english)) return { ...none, terms: [term(word, [word], lexicon, phrase)] };
  // Two catalog words run together ("usbc", "tshirts").
  for (let at = 1; at < word.length; at += 1) {
    const [head, tail] = [word.slice(0, at), word.slice(at)];
    const tailForm = inflectedForm(tail, vocabulary);
    // Letters then digits ("vg46" → "vg 46") may be split too.
    const letterDigit = /[a-z]$/.test(head) && /^\d/.test(tail);
    if (vocabulary.has(head) && tailForm && Math.min(head.length, tail.length) + Math.max(head.length, tail.length) >= 4 && (Math.min(head.length, tail.length) > 1 || Math.max(head.length, tail.length) >= 3) && (!/\d/.test(head + tail) || letterDigit)) {
      return { ...none, terms: [term(word, [`${head} ${tailForm}`], lexicon, phrase)], corrections: [{ from: word, to: `${head} ${tailForm}`, kind: 'spelling' }] };
    }
  }
  const corrected = typoCorrection(word, vocabulary);
  if (corrected) return { ...none, terms: [{ ...term(corrected, [corrected], lexicon, phrase), modifier: isModifier(corrected, lexicon.colours) }], corrections: [{ from: word, to: corrected, kind: 'spelling' }] };
  return { terms: [term(word, [word], lexicon, phrase)], corrections: [], unparsed: [raw.replace(/'s$/, '')] };
}

const TOKEN = /[\p{L}\p{N}]+(?:['.-][\p{L}\p{N}]+)*|[,;!?()|/]/gu;

export const readWords: Extractor = ({ text, reading }, lexicon) => {
  const terms = [...reading.terms];
  const corrections = [...reading.corrections];
  const unparsed = [...reading.unparsed];
  // Multi-word synonyms first ("hi vis", "shrink wrap"), when the catalog lacks the phrase's own words.
  for (const phrase of synonymPhrases(lexicon.synonyms)) {
    const pattern = new RegExp(`\\b${phrase.replace(/ /g, '[\\s-]?')}(?:e?s)?\\b`, 'i');
    const match = pattern.exec(text);
    if (!match || lexicon.hasPhrase(phrase.split(' '))) continue;
    const forms = synonymForms(phrase, lexicon.vocabulary, lexicon.synonyms);
    if (forms.length === 0) continue;
    terms.push(term(phrase, forms, lexicon, 0));
    corrections.push({ from: match[0].toLowerCase(), to: forms[0] as string, kind: 'synonym' });
    text = cut(text, match[0], match.index);
  }
  const raw = [...text.matchAll(TOKEN)].map((match) => match[0]);
  let phrase = 0;
  let either = false;
  for (let index = 0; index < raw.length; index += 1) {
    let token = raw[index] as string;
    const lower = token.toLowerCase();
    if (/^[,;!?()|/]$/.test(token)) {
      phrase += 1;
      either = false;
      continue;
    }
    if (lower === 'or') {
      either = terms.length > 0 && terms.at(-1)?.phrase === phrase;
      continue;
    }
    if (PREPOSITIONS.has(lower)) {
      phrase += 1;
      either = false;
      continue;
    }
    // "heavy duty", "powder free": one describing word, however typed.
    const following = raw[index + 1]?.toLowerCase();
    if (following && DESCRIBING_SECOND.has(following) && /^\p{L}+$/u.test(token)) {
      token = `${token}-${following}`;
      index += 1;
    }
    // "anti fog": one describing word.
    if (following && PREFIXES.has(lower) && /^\p{L}+$/u.test(following)) {
      token = `${token}-${following}`;
      index += 1;
    }
    // "EN 397", "DIN 933", "ISO 9001": a standard and its number are one code.
    const standard = raw[index + 1];
    if (standard && /^(?:en|din|iso|astm|ansi|bs|jis|nf|csa)$/.test(lower) && /^\d+[a-z\d-]*$/i.test(standard) && !lexicon.vocabulary.has(`${lower}${standard.toLowerCase()}`)) {
      const code = `${lower} ${standard.toLowerCase()}`;
      if (!terms.some((existing) => existing.word === code)) terms.push({ ...term(code, [code], lexicon, phrase), modifier: true });
      index += 1;
      continue;
    }
    // "Cat 6", "FFP 2", "N 95": the catalog writes them as one word.
    const next = raw[index + 1];
    if (next && /^[a-z]+$/i.test(token) && /^\d+[a-z]*$/i.test(next) && lexicon.vocabulary.has(`${lower}${next.toLowerCase()}`)) {
      token = `${token}${next}`;
      index += 1;
    }
    const resolved = resolveWord(token, lexicon, phrase);
    corrections.push(...resolved.corrections);
    unparsed.push(...resolved.unparsed);
    for (const found of resolved.terms) {
      const previous = terms.at(-1);
      if (either && previous && previous.phrase === phrase) {
        // "nitrile or latex": one term either satisfies.
        terms[terms.length - 1] = { ...previous, word: `${previous.word} or ${found.word}`, forms: [...previous.forms, ...found.forms], known: previous.known || found.known, modifier: previous.modifier && found.modifier };
        either = false;
      } else if (!terms.some((existing) => existing.word === found.word)) terms.push(found);
    }
  }
  return { text: '', reading: { ...reading, terms, corrections, unparsed } };
};
