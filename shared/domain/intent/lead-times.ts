// Lead times: "within 10 days", "in 2 weeks", "delivered within a week", "3 days or less", "5 business
// days", "within 48 hours", "next-day", "tomorrow", "2-day shipping", "in a fortnight", "next week". Weeks are 7 days,
// months 30, business days 7/5 of a day each (rounded up), hours rounded up to whole days.
import { NUMBER_WORD, wordsToNumber } from './numbers.ts';
import { cut, type Extractor } from './reading.ts';

const SPAN = `(\\d+(?:\\.\\d+)?|${NUMBER_WORD}|a|an|one)[\\s-]*(business days?|working days?|days?|d|weeks?|wks?|months?|fortnight|hours?|hrs?|h)`;
const BEFORE = '(?:within|in|under|below|less than|max(?:imum)?|at most|up to|no more than|not more than|by|lead[- ]time(?: of)?(?: under| below| max| at most| within)?|ships? in|shipping in|shipped in|delivered in|delivered within|delivery in|delivery within|ship within|shipped within|ships within|arrives? in|arriving in|arrives? within|dispatch(?:ed)? (?:with)?in)';
const PATTERNS = [
  new RegExp(`\\b${BEFORE}\\s*:?\\s*(?:the next\\s+)?${SPAN}\\b`, 'gi'),
  new RegExp(`\\b${SPAN}\\s*(?:or less|or fewer|max(?:imum)?|at most|or sooner|lead[- ]time|delivery|shipping|turnaround|dispatch)\\b`, 'gi'),
  // A span of days, weeks or months alone ("gloves 5 business days") is a lead time too; hours need a word before them.
  new RegExp(`\\b(\\d+(?:\\.\\d+)?|${NUMBER_WORD}|a|an|one)[\\s-]*(business days?|working days?|days?|weeks?|months?)\\b`, 'gi'),
];

/** Days for an amount and a unit ("2", "weeks" → 14); undefined when the amount is not a number. */
export function leadDays(amountText: string, unitText: string): number | undefined {
  const lowered = amountText.toLowerCase();
  const amount = /\d/.test(lowered) ? Number(lowered) : wordsToNumber(lowered === 'a' || lowered === 'an' ? 'one' : lowered);
  if (amount === undefined || !Number.isFinite(amount)) return undefined;
  const unit = unitText.toLowerCase();
  let days: number;
  if (unit.startsWith('business') || unit.startsWith('working')) days = Math.ceil((amount * 7) / 5);
  else if (unit.startsWith('w')) days = amount * 7;
  else if (unit.startsWith('month')) days = amount * 30;
  else if (unit === 'fortnight') days = 14;
  else if (unit.startsWith('h')) days = Math.ceil(amount / 24);
  else days = amount;
  return Math.min(365, Math.max(0, Math.ceil(days)));
}

const NEXT_DAY = /\b(?:(?:by\s+|for\s+)?tomorrow|next[- ]day|overnight)(?:\s+(?:delivery|shipping|dispatch))?\b/gi;
const SAME_DAY = /\bsame[- ]day(?:\s+(?:delivery|shipping|dispatch))?\b/gi;
const FORTNIGHT = /\b(?:within|in|by)\s+(?:a|one)\s+fortnight\b/gi;
/** "needed next week", "by next month", "within the next week": within that span from today. */
const NEXT_SPAN = /\b(?:(?:by|for|within|in|during)\s+)?(?:the\s+)?(?:next|this|coming)\s+(week|month)\b/gi;

export const readLeadTime: Extractor = ({ text, reading }) => {
  let days = reading.filters.maxLeadTimeDays;
  const keep = (value: number) => (days = Math.min(days ?? Infinity, value));
  for (const pattern of PATTERNS) {
    for (const match of [...text.matchAll(pattern)]) {
      const value = leadDays(match[1] as string, match[2] as string);
      // "2 h" alone is no lead time; units need their number.
      if (value === undefined) continue;
      keep(value);
      text = cut(text, match[0]);
    }
  }
  for (const match of [...text.matchAll(NEXT_SPAN)]) {
    keep((match[1] as string).toLowerCase() === 'week' ? 7 : 30);
    text = cut(text, match[0]);
  }
  for (const [pattern, value] of [[FORTNIGHT, 14], [NEXT_DAY, 1], [SAME_DAY, 0]] as const) {
    if (pattern.test(text)) {
      keep(value);
      text = text.replace(pattern, ' ');
    }
    pattern.lastIndex = 0;
  }
  return days === undefined ? { text, reading } : { text, reading: { ...reading, filters: { ...reading.filters, maxLeadTimeDays: days } } };
};
