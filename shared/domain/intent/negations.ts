// Negations: "not latex", "no latex", "non-latex", "latex-free", "without powder", "excluding vinyl".
// The word is ruled out: items holding it are left out. Where the catalog itself says "X-free"
// ("powder-free", "alcohol-free"), "X-free" and "without X" ask for that, as a product word, instead:
// ruling out X would rule out the very products that say they are free of it.
import { cut, formKnown, type Extractor, type Term } from './reading.ts';

const NEGATED = /\b(?:not|no|non|without|w\/o|excluding|except|free of|anything but|never)[\s-]+([\p{L}][\p{L}\d]*)/giu;
const FREE = /\b([\p{L}][\p{L}\d]*)[\s-]free\b/giu;
/** Words after "no"/"not" that are not things to rule out ("no more than", "not urgent"). */
const NOT_A_THING = new Set(['more', 'less', 'later', 'longer', 'than', 'later', 'need', 'problem', 'rush', 'minimum', 'min', 'moq', 'matter', 'preference', 'brand', 'particular', 'specific', 'urgent', 'over', 'above', 'under', 'below', 'too', 'a', 'an', 'the', 'from', 'in', 'by', 'one']);

export const readNegations: Extractor = ({ text, reading }, lexicon) => {
  const excluded = [...reading.excluded];
  const terms: Term[] = [];
  const freeOf = (word: string) => {
    const form = `${word} free`;
    if (lexicon.hasPhrase([word, 'free'])) {
      terms.push({ word: `${word}-free`, forms: [form], known: formKnown(form, lexicon.vocabulary), modifier: true, phrase: -1 });
      return true;
    }
    return false;
  };
  for (const match of [...text.matchAll(FREE)]) {
    const word = (match[1] as string).toLowerCase();
    if (NOT_A_THING.has(word) || /^(?:tax|duty|shipping|delivery|postage|carriage|cost|charge|fee|hassle)$/.test(word)) continue;
    if (!freeOf(word) && !excluded.includes(word)) excluded.push(word);
    text = cut(text, match[0], match.index);
  }
  for (const match of [...text.matchAll(NEGATED)]) {
    const word = (match[1] as string).toLowerCase();
    if (NOT_A_THING.has(word) || /^\d/.test(word)) continue;
    if (!freeOf(word) && !excluded.includes(word)) excluded.push(word);
    text = cut(text, match[0]);
  }
  if (excluded.length === reading.excluded.length && terms.length === 0) return { text, reading };
  return { text, reading: { ...reading, excluded, terms: [...reading.terms, ...terms] } };
};
