// Numbers as people write them: digits with separators and shorthand ("2,500", "10k"), and words
// ("two thousand five hundred", "a dozen", "half a dozen").
const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
  a: 1, an: 1, single: 1, couple: 2, dozen: 12, score: 20, gross: 144,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, k: 1_000, million: 1_000_000, m: 1_000_000, mil: 1_000_000 };
const MULTIPLYING = new Set(['dozen', 'gross', 'score']);

/** One number word (not "a"/"an", which only count before a scale: "a hundred", "a dozen"). */
export const NUMBER_WORD = `(?:${[...Object.keys(SMALL), ...Object.keys(SCALES).filter((w) => w.length > 1)]
  .filter((w) => !['a', 'an', 'score', 'single', 'mil'].includes(w))
  .join('|')})`;
/** Number words in a row ("two thousand five hundred", "half a dozen", "a dozen", "twenty-four"). */
export const WORDS_NUMBER = `(?:half an? dozen|(?:an?|one) (?:hundred|thousand|million|dozen)(?:[ -](?:and[ -])?${NUMBER_WORD})*|${NUMBER_WORD}(?:[ -](?:and[ -])?${NUMBER_WORD})*)`;
/** A number in digits ("2,500", "10k", "1.5") or words. */
export const NUMBER = `(?:\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?(?:\\s?(?:k|thousand|million)\\b)?|${WORDS_NUMBER})`;

/** "two thousand five hundred" → 2500; undefined when the words are not a number. */
export function wordsToNumber(words: string): number | undefined {
  const parts = words.toLowerCase().replace(/-/g, ' ').split(/\s+/).filter((word) => word !== 'and' && word !== '');
  if (/^half an? dozen$/.test(parts.join(' '))) return 6;
  let total = 0;
  let current = 0;
  let seen = false;
  for (const part of parts) {
    if (part in SMALL) {
      const value = SMALL[part] as number;
      if (MULTIPLYING.has(part)) current = (current || 1) * value;
      else current += value;
      seen = true;
    } else if (part in SCALES) {
      const scale = SCALES[part] as number;
      if (scale >= 1000) {
        total += (current || 1) * scale;
        current = 0;
      } else current = (current || 1) * scale;
      seen = true;
    } else return undefined;
  }
  return seen ? total + current : undefined;
}

/** "2,500" → 2500, "10k" → 10000, "1.5k" → 1500, "0.12" → 0.12. */
export function digitsToNumber(text: string): number | undefined {
  const match = /^(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(k|m|thousand|million)?$/i.exec(text.trim());
  if (!match) return undefined;
  const value = Number((match[1] as string).replace(/,/g, ''));
  const suffix = match[2]?.toLowerCase();
  const scale = suffix === 'k' || suffix === 'thousand' ? 1000 : suffix === 'm' || suffix === 'million' ? 1_000_000 : 1;
  return Number.isFinite(value) ? value * scale : undefined;
}

/** A number in digits or words. */
export function toNumber(text: string): number | undefined {
  return /\d/.test(text) ? digitsToNumber(text.replace(/\s/g, '')) : wordsToNumber(text);
}
