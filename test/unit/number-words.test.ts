// Number words in intents ("two thousand five hundred") and digits with separators and shorthand
// ("2,500", "10k"): property tests against an independent English speller.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digitsToNumber, WORDS_NUMBER, wordsToNumber } from '../../shared/domain/intent/numbers.ts';

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** 0–999 in words, with "and" after the hundreds when `and`, and hyphenated tens. */
function below1000(n: number, and: boolean): string {
  const words: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds) words.push(ONES[hundreds] as string, 'hundred');
  if (rest) {
    if (hundreds && and) words.push('and');
    words.push(rest < 20 ? (ONES[rest] as string) : `${TENS[Math.floor(rest / 10)]}${rest % 10 ? `-${ONES[rest % 10]}` : ''}`);
  }
  return words.join(' ');
}

function spelled(n: number, and: boolean): string {
  if (n === 0) return 'zero';
  const parts: string[] = [];
  for (const [scale, name] of [[1_000_000, 'million'], [1_000, 'thousand'], [1, '']] as const) {
    const chunk = Math.floor(n / scale) % 1000;
    if (chunk) parts.push(name ? `${below1000(chunk, and)} ${name}` : below1000(chunk, and));
  }
  return parts.join(' ');
}

describe('number words', () => {
  it('read every number up to 999,999,999 as spelled in English, with or without "and", in any case (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.boolean(), fc.boolean(), (n, and, upper) => {
        const text = spelled(n, and);
        expect(wordsToNumber(upper ? text.toUpperCase() : text)).toBe(n);
      }),
    );
  });

  it('are found whole by the pattern the intent reader matches with (property)', () => {
    const whole = new RegExp(`^${WORDS_NUMBER}$`);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (n) => {
        expect(spelled(n, false)).toMatch(whole);
      }),
    );
  });

  it('refuse any word that is not a number word (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999 }), fc.stringMatching(/^[a-z]{3,10}$/), (n, word) => {
        fc.pre(wordsToNumber(word) === undefined);
        expect(wordsToNumber(`${spelled(n, false)} ${word}`)).toBeUndefined();
      }),
    );
  });

  it('read digits with thousands separators and k/thousand/million shorthand (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), (n) => {
        expect(digitsToNumber(String(n))).toBe(n);
        expect(digitsToNumber(n.toLocaleString('en-US'))).toBe(n);
        expect(digitsToNumber(`${n}k`)).toBe(n * 1000);
        expect(digitsToNumber(`${n} thousand`)).toBe(n * 1000);
      }),
    );
  });
});
