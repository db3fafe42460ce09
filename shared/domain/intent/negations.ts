// Negations: "not latex", "no latex", "non-latex", "latex-free", "without powder", "excluding vinyl".
// The word is ruled out: items holding it are left out. Where the catalog itself says "X-free"
// ("powder-free", "alcohol-free"), "X-free" and "without X" ask for that, as a product word, instead:
// ruling out X would rule out the very products that say they are free of it.
import { cut, formKnown, type Extractor, type Term } from './reading.ts';
import { inflectedForm } from './spelling.ts';

const NEGATED = /\b(?:not|no|non|without|w\/o|excluding|except|free of|anything but|never)[\s-]+([\p{L}][\p{L}\d]*)/giu;
const FREE = /\b([\p{L}][\p{L}\d]*)[\s-]free\b/giu;
/** Words after "no"/"not" that are not things to rule out ("no more than", "not urgent"). */
const NOT_A_THING = new Set(['more', 'less', 'later', 'longer', 'than', 'later', 'need', 'problem', 'rush', 'minimum', 'min', 'moq', 'matter', 'preference', 'brand', 'particular', 'specific', 'urgent', 'over', 'above', 'under', 'below', 'too', 'a', 'an', 'the', 'from', 'in', 'by', 'one']);

export const readNegations: Extractor = ({ text, reading }, lexicon) => {
  const excluded = [...reading.excluded];
  const unparsed = [...reading.unparsed];
  const terms: Term[] = [];
  const freeOf = (word: string) => {
    // "not powdered" asks for what the catalog calls "powder-free": the word in the catalog's own form.
    const base = lexicon.vocabulary.has(word) ? word : (inflectedForm(word, lexicon.vocabulary) ?? word);
    const form = `${base} free`;
    if (lexicon.hasPhrase([base, 'free'])) {
      if (!terms.some((term) => term.word === `${base}-free`)) terms.push({ word: `${base}-free`, forms: [form], known: formKnown(form, lexicon.vocabulary), modifier: true, phrase: -1 });
      return true;
    }
    return false;
  };
  // A describing word ("not powdered", "non-scented") the catalog has no "X-free" for rules nothing out
  // by itself: its stem may be what the wanted products are free of. It is dropped, never a product word.
  const describes = (word: string) => /(?:ed|y)$/.test(word) && word.length > 4 && !lexicon.vocabulary.has(word);
  for (const match of [...text.matchAll(FREE)]) {
    const word = (match[1] as string).toLowerCase();
    if (NOT_A_THING.has(word) || /^(?:tax|duty|shipping|delivery|postage|carriage|cost|charge|fee|hassle)$/.test(word)) continue;
    if (!freeOf(word) && !excluded.includes(word)) excluded.push(word);
    text = cut(text, match[0], match.index);
  }
  for (const match of [...text.matchAll(NEGATED)]) {
    const word = (match[1] as string).toLowerCase();
    if (NOT_A_THING.has(word) || /^\d/.test(word)) continue;
    if (freeOf(word)) {
      // read as the catalog's "X-free"
    } else if (describes(word)) {
      if (!unparsed.includes(match[0].trim().toLowerCase())) unparsed.push(match[0].trim().toLowerCase());
    } else if (!excluded.includes(word)) excluded.push(word);
    text = cut(text, match[0]);
  }
  if (excluded.length === reading.excluded.length && terms.length === 0 && unparsed.length === reading.unparsed.length) return { text, reading };
  return { text, reading: { ...reading, excluded, unparsed, terms: [...reading.terms, ...terms] } };
};
