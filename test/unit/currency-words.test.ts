// The price patterns are built from the currency words a text holds (shared/domain/intent/money.ts),
// not from all 502: they read a text as the patterns with every word would, because a word the text
// does not hold can never match, and the words keep their longest-first order. Checked here as a
// property of currencyWordsIn (every word a case-insensitive pattern finds in a text is selected, in
// the full list's order) and by reading prices with each currency word.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CURRENCY_WORDS, CURRENCY_WORDS, currencyWordPattern, currencyWordsIn } from '../../shared/domain/intent/money.ts';
import { readPrices } from '../../shared/domain/intent/prices.ts';
import { emptyReading } from '../../shared/domain/intent/reading.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether the full pattern's alternative for `word` matches somewhere in `text` (case-insensitive, as the price patterns are). */
const found = (word: string, text: string) => new RegExp(`${escape(word)}\\b`, 'i').test(text);

const randomCase = (word: string) => fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((upper) => [...word].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''));
const fragment = fc.oneof(
  fc.constantFrom(...ALL_CURRENCY_WORDS).chain(randomCase),
  fc.constantFrom(' ', '  ', '-', '$', '€', '£', '¥', 'k', 's', ', ', '(', ')', 'İ', 'ß', 'K'),
  fc.stringMatching(/^[0-9]{1,4}(\.[0-9]{1,2})?$/),
  fc.stringMatching(/^[a-zA-Z]{1,8}$/),
);
const text = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''));

describe('the currency words a text holds', () => {
  it('include every word a case-insensitive pattern finds in it, in the longest-first order of the full list', () => {
    fc.assert(
      fc.property(text, (sample) => {
        const selected = currencyWordsIn(sample);
        for (const word of ALL_CURRENCY_WORDS) if (found(word, sample)) expect(selected, `${word} in ${JSON.stringify(sample)}`).toContain(word);
        const positions = selected.map((word) => ALL_CURRENCY_WORDS.indexOf(word));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  it('are only words the text holds, none for a text without any, and then the pattern matches nothing', () => {
    expect(currencyWordsIn('12 boots, size 44')).toEqual([]);
    // A word inside another counts ("ves", a currency code, in "gloves"): more words never change a match.
    expect(currencyWordsIn('500 nitrile gloves under 3 Euros')).toEqual(['euros', 'euro', 'eur', 'ves']);
    expect(new RegExp(currencyWordPattern([]), 'i').test('anything at all')).toBe(false);
  });

  it('read a price in every currency word a pattern can end on, in any letter case', () => {
    // A word ending in anything but an ASCII letter or digit ("… (ui)") is followed by no word boundary
    // the price patterns could match, with the full list as without it.
    for (const word of ALL_CURRENCY_WORDS.filter((candidate) => /[a-z0-9]$/.test(candidate))) {
      const currency = CURRENCY_WORDS.get(word);
      const { reading } = readPrices({ text: `gloves under 5 ${word.toUpperCase()} each`, reading: emptyReading() }, undefined as never);
      expect(reading.filters.currency, word).toBe(currency);
      expect(reading.filters.maxPrice, word).toBeGreaterThan(0);
    }
    // About 500 readings, each building its price patterns: seconds on a quiet machine, far longer on a busy one.
  }, 180_000);
});
