// Origins: ISO codes after "from/in/made in/ships from" (uppercase only: "in" and "us" are words; "UK"
// is GB), country names, official names, spellings, demonyms and names in the main EU languages
// anywhere ("from Germany", "German-made", "a German supplier", "Italian roaster", "Deutschland"),
// regions ("from the EU", "European suppliers") and misspelt countries ("Germny" → Germany, reported as a
// correction). A name that is also a catalog or English word ("china", "polish", "jersey") counts only
// when capitalised or said as an origin ("from", "made in", "-made", "supplier"). Several countries
// ("from Germany or the Netherlands") filter on any of them.
import { distance } from 'fastest-levenshtein';
import { COUNTRY_CODES } from '../../schemas/countries.ts';
import type { Correction, Extractor, IntentLexicon } from './reading.ts';

const CODE_PHRASE = /\b(?:from|in|ships? from|shipping from|shipped from|made in|origin:?|based in|located in|warehouse in|sourced from)\s+(?:the\s+|an?\s+)?([A-Z]{2,3})\b(?:[\s-](?:suppliers?|vendors?|sellers?|manufacturers?|makers?))?|\b([A-Z]{2,3})[\s-](?:suppliers?|vendors?|sellers?|manufacturers?|makers?|made|based|warehouses?|stock)\b/g;
const THREE_LETTER: Record<string, string> = { USA: 'US', UAE: 'AE', UK: 'GB' };
/** Words before a country that say it is an origin. */
const BEFORE = /(?:\b(?:from|in|made in|manufactured in|produced in|ships? from|shipping from|shipped from|shipped in|based in|located in|sourced from|supplied from|origin|country of origin)\s*:?\s+(?:an?\s+|the\s+)?|\b(?:from|by)\s+(?:an?|the)\s+)$/i;
/** Words after a country that say it is an origin ("German-made", "German supplier"). */
const AFTER = /^(?:-?\s?(?:made|based|manufactured|produced|sourced)\b|\s+(?:suppliers?|vendors?|sellers?|manufacturers?|makers?|producers?|roasters?|mills?|factor(?:y|ies)|companies|company|firms?|wholesalers?|distributors?|brands?|origin|warehouses?|stock)\b)/i;
const REGION_WORDS: Record<string, string> = { eu: 'eu', europe: 'europe', european: 'europe', 'european union': 'eu' };
const JOINERS = /^(?:\s*(?:,|or|and|\/|the)\s*)+$/i;

interface Found {
  codes: string[];
  start: number;
  end: number;
  correction?: Correction;
}

/** Letter runs of the text with their offsets. */
function wordsOf(text: string): { word: string; start: number }[] {
  return [...text.matchAll(/\p{L}+/gu)].map((match) => ({ word: match[0], start: match.index ?? 0 }));
}

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The nearest spellable country name for a word the catalog and English both lack, within 1 (5–6 letters) or 2 (7+) edits. */
export function misspeltCountry(word: string, lexicon: IntentLexicon): string | undefined {
  if (word.length < 5 || lexicon.vocabulary.has(word) || lexicon.english.has(word)) return undefined;
  const allowed = word.length >= 7 ? 2 : 1;
  let best: { name: string; distance: number } | undefined;
  for (const name of lexicon.spellable) {
    if (Math.abs(name.length - word.length) > allowed || name[0] !== word[0]) continue;
    const d = distance(word, name);
    if (d <= allowed && (!best || d < best.distance)) best = { name, distance: d };
  }
  return best?.name;
}

function findOrigins(text: string, lexicon: IntentLexicon): Found[] {
  const words = wordsOf(text);
  const found: Found[] = [];
  for (let i = 0; i < words.length; ) {
    let match: Found | undefined;
    for (let n = Math.min(5, words.length - i); n >= 1 && !match; n -= 1) {
      const first = words[i] as { word: string; start: number };
      const last = words[i + n - 1] as { word: string; start: number };
      const end = last.start + last.word.length;
      const raw = text.slice(first.start, end);
      if (/[^\p{L} '.-]/u.test(raw)) continue;
      const phrase = fold(raw).replace(/\s+/g, ' ');
      const before = BEFORE.exec(text.slice(0, first.start));
      const after = AFTER.exec(text.slice(end));
      const said = Boolean(before || after);
      let codes: string[] | undefined;
      let correction: Correction | undefined;
      const region = REGION_WORDS[phrase];
      const code = lexicon.countries.get(phrase);
      if (region) codes = [...(lexicon.regions.get(region) ?? [])];
      else if (code) {
        // A name that is also a product or English word counts only when capitalised or said as an origin.
        const ambiguous = lexicon.vocabulary.has(phrase) || lexicon.english.has(phrase);
        const capitalised = /^\p{Lu}/u.test(raw) && first.start > 0;
        if (!ambiguous || said || capitalised) codes = [code];
      } else if (n === 1) {
        const name = misspeltCountry(phrase, lexicon);
        const spelt = name ? lexicon.countries.get(name) : undefined;
        if (name && spelt) {
          codes = [spelt];
          correction = { from: phrase, to: name, kind: 'country' };
        }
      }
      if (codes && codes.length > 0) {
        const start = before ? first.start - before[0].length : first.start;
        match = { codes, start, end: after ? end + after[0].length : end, ...(correction ? { correction } : {}) };
        i += n;
      }
    }
    if (match) found.push(match);
    else i += 1;
  }
  return found;
}

export const readOrigin: Extractor = ({ text, reading }, lexicon) => {
  const codes: string[] = [];
  const corrections = [...reading.corrections];
  for (const match of [...text.matchAll(CODE_PHRASE)]) {
    const raw = (match[1] ?? match[2]) as string;
    const code = THREE_LETTER[raw] ?? raw;
    if (!COUNTRY_CODES.has(code)) continue;
    codes.push(code);
    text = text.replace(match[0], ' ');
  }
  const found = findOrigins(text, lexicon);
  const unparsed = [...reading.unparsed];
  const cuts: { start: number; end: number }[] = [];
  // "not from China": there is no filter for "anywhere but"; the phrase is reported as not understood.
  const NEGATED = /\b(?:not|except|excluding|outside(?: of)?|other than|anywhere but|but not)\s+(?:from\s+|in\s+)?$/i;
  const kept = found.filter((item) => {
    const negated = NEGATED.exec(text.slice(0, item.start));
    if (!negated) return true;
    unparsed.push(`${negated[0]}${text.slice(item.start, item.end)}`.replace(/\s+/g, ' ').trim());
    cuts.push({ start: item.start - negated[0].length, end: item.end });
    return false;
  });
  // The first country and those joined to it by "or", "and" or commas; a later, separate mention is ambiguous.
  const group: Found[] = [];
  for (const item of kept) {
    const previous = group.at(-1);
    if (!previous || JOINERS.test(text.slice(previous.end, item.start))) group.push(item);
    else break;
  }
  for (const item of group) {
    codes.push(...item.codes.filter((code) => !codes.includes(code)));
    if (item.correction) corrections.push(item.correction);
    cuts.push({ start: item.start, end: item.end });
  }
  for (const { start, end } of cuts.sort((a, b) => b.start - a.start)) text = `${text.slice(0, start)} ${text.slice(end)}`;
  const unique = [...new Set(codes)];
  if (unique.length === 0) return { text, reading: { ...reading, unparsed } };
  const shipsFrom = unique.length === 1 ? (unique[0] as string) : unique.sort();
  return { text, reading: { ...reading, corrections, unparsed, filters: { ...reading.filters, shipsFrom } } };
};
