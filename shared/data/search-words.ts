// The word data the intent reader needs (English words, country names, regions), read once per
// instance from search-words.json, which ships beside the search bundles (a route's `bundledFiles`,
// built by lib/search-words.ts) so that its 700 kB never enter a bundle. Routes whose handlers read
// intents must list it in their row's bundledFiles.
import { readBundledFile } from '../resources.ts';

export const SEARCH_WORDS_FILE = 'search-words.json';

export interface SearchWords {
  /** Words that say nothing about the product. */
  noise: ReadonlySet<string>;
  /** Colour words. */
  colours: ReadonlySet<string>;
  /** Nouns that describe rather than name a product ("rubber", "work", "winter"). */
  qualifiers: ReadonlySet<string>;
  /** Groups of words catalogs use for the same product. */
  synonyms: readonly (readonly string[])[];
  /** Common English words, lowercase. */
  english: ReadonlySet<string>;
  /** Lowercase country names, official names, spellings, demonyms and EU-language names → ISO 3166-1 alpha-2. */
  countries: ReadonlyMap<string, string>;
  /** One-word country names and demonyms a misspelt country is corrected to. */
  spellable: readonly string[];
  /** Lowercase region names ("eu", "europe") → their country codes. */
  regions: ReadonlyMap<string, readonly string[]>;
}

let loaded: SearchWords | undefined;

/** Parses the file's content (lib/search-words.ts writes it). */
export function parseSearchWords(content: string): SearchWords {
  const raw = JSON.parse(content) as { noise: string[]; colours: string[]; qualifiers: string[]; synonyms: string[][]; english: string; countries: Record<string, string>; spellable: string[]; regions: Record<string, string[]> };
  return {
    noise: new Set(raw.noise),
    colours: new Set(raw.colours),
    qualifiers: new Set(raw.qualifiers),
    synonyms: raw.synonyms,
    english: new Set(raw.english.split('\n')),
    countries: new Map(Object.entries(raw.countries)),
    spellable: raw.spellable,
    regions: new Map(Object.entries(raw.regions)),
  };
}

/** The instance's word data, read on first use. */
export function searchWords(): SearchWords {
  if (!loaded) {
    loaded = parseSearchWords(readBundledFile(SEARCH_WORDS_FILE, import.meta.url));
  }
  return loaded;
}
