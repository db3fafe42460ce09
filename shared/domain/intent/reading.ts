// What the intent reader builds, and the shape of its extractors. Each extractor reads one kind of
// phrase (prices, lead times, origins…), records it in the reading and takes it out of the text, so
// the next extractor sees only what is left: `(text, reading) → (text, reading)`.
import { surfaceWords } from '../../data/search-replica/text.ts';
import type { SearchWords } from '../../data/search-words.ts';
import type { SearchFilters, SearchSort } from '../../schemas/search.ts';

/** The catalog's words and the bundled word data (SearchWords: noise, colours, synonyms, English, countries…). */
export interface IntentLexicon extends SearchWords {
  /** Lowercase brands of the catalog. */
  brands: readonly string[];
  /** Category paths of the catalog. */
  categories: readonly string[];
  /** Lowercase surface words of the catalog with the number of products using each. */
  vocabulary: ReadonlyMap<string, number>;
  /** Whether some product's text holds these words in a row ("5 litre", "powder free"). */
  hasPhrase: (words: readonly string[]) => boolean;
  /** Whether some product's text holds all these words. */
  hasAll: (words: readonly string[]) => boolean;
}

/** A product word as read: what the buyer asked for, in the catalog's spelling where it has one. */
export interface Term {
  /** The word as reported (lowercase; a phrase's words joined by a space or hyphen as typed). */
  word: string;
  /** What an item may contain instead of each other: words or phrases ("usb c"), in the catalog's spelling. */
  forms: string[];
  /** Whether the catalog has it at all (some form's every word is in the vocabulary). */
  known: boolean;
  /** A size, measure, code, colour or describing word: may be dropped when no product has it with the rest. */
  modifier: boolean;
  /** Which noun phrase of the request it belongs to (prepositions and commas start a new one). */
  phrase: number;
}

export interface Correction {
  from: string;
  to: string;
  /** spelling: a typo; variant: British/American spelling; synonym: the catalog's word for it; country: a misspelt country. */
  kind: 'spelling' | 'variant' | 'synonym' | 'country';
}

export interface Money {
  amount: number;
  currency: string;
}

export interface Reading {
  terms: Term[];
  quantity: number | null;
  filters: SearchFilters;
  sort: SearchSort;
  /** Words not understood. */
  unparsed: string[];
  corrections: Correction[];
  /** Words the buyer ruled out ("not latex", "latex-free"): items holding them are left out. */
  excluded: string[];
  /** A total budget ("budget 500 EUR total"): the unit-price ceiling is derived from it and the quantity. */
  budget: Money | null;
}

export interface IntentStep {
  text: string;
  reading: Reading;
}

export type Extractor = (step: IntentStep, lexicon: IntentLexicon) => IntentStep;

export function emptyReading(): Reading {
  return { terms: [], quantity: null, filters: {}, sort: 'relevance', unparsed: [], corrections: [], excluded: [], budget: null };
}

/** The text with `match` (found in it) replaced by a space. */
export function cut(text: string, match: string, at?: number): string {
  const index = at ?? text.indexOf(match);
  return index < 0 ? text : `${text.slice(0, index)} ${text.slice(index + match.length)}`;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lowercase letters and digits, accents removed (the index's own tokens: its surface words). */
export function tokens(text: string): string[] {
  return surfaceWords(text);
}

/** Whether every word of a form is a catalog word. */
export function formKnown(form: string, vocabulary: ReadonlyMap<string, number>): boolean {
  const words = tokens(form);
  return words.length > 0 && words.every((word) => vocabulary.has(word));
}
