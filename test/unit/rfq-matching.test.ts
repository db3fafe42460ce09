// Which words an RFQ is matched by: the title's words in the catalog's spelling (plural, British/American
// variant, typo), each kept only with the ones before it; keywords as structured search reads its query.
import { describe, expect, it } from 'vitest';
import { matchingTerms } from '../../shared/domain/rfq-matching.ts';

/** A catalog of a few products, each its words: the index's vocabulary and "some product has all these words". */
function catalog(products: readonly string[][]) {
  const vocabulary = new Map<string, number>();
  for (const words of products) for (const word of new Set(words)) vocabulary.set(word, (vocabulary.get(word) ?? 0) + 1);
  return {
    words: () => vocabulary,
    exists: (query: { words: readonly (string | readonly string[])[] }) => products.some((words) => query.words.every((word) => typeof word === 'string' && words.includes(word))),
  };
}

const index = catalog([
  ['nitrile', 'gloves', 'powder', 'free'],
  ['latex', 'gloves'],
  ['hand', 'sanitizer', 'gel'],
  ['copy', 'paper', 'a4'],
]);
const english = new Set(['for', 'our', 'clinic', 'clinics', 'size', 'the', 'hand', 'copy', 'paper', 'gloves', 'glove']);
const rfq = (title: string, keywords: string[] = []) => ({ title, keywords, category: null, currency: 'EUR', shipsFrom: [] });
const now = new Date('2026-11-27T12:00:00Z');

describe('the words an RFQ is matched by', () => {
  it('keeps the title words the catalog has together, in its spelling', () => {
    expect(matchingTerms(rfq('5,000 nitrile gloves, size M'), index, now, english)).toEqual(['nitrile', 'gloves']);
    expect(matchingTerms(rfq('Hand sanitiser for our clinics'), index, now, english)).toEqual(['hand', 'sanitizer']);
  });

  it('reads a misspelt title word as the catalog word it nearly is, but never an English word as another', () => {
    expect(matchingTerms(rfq('Nitril glvoes'), index, now, english)).toEqual(['nitrile', 'gloves']);
    // "clinic" is English: not read as any catalog word.
    expect(matchingTerms(rfq('Clinic paper'), index, now, english)).toEqual(['paper']);
  });

  it('reaches nobody for something nobody sells', () => {
    expect(matchingTerms(rfq('Forklift trucks'), index, now, english)).toEqual([]);
  });

  it('requires every keyword, each corrected as structured search corrects a typed word', () => {
    expect(matchingTerms(rfq('Anything', ['nitirle', 'gloves']), index, now, english)).toEqual(['nitrile', 'gloves']);
    expect(matchingTerms(rfq('Anything', ['latex', 'clinic']), index, now, english)).toEqual(['latex', 'clinic']);
  });
});
