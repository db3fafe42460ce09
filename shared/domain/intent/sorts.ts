// Sort phrases: "cheapest", "lowest price first", "price low to high" → price_asc; "most expensive",
// "high to low" → price_desc; "newest", "latest" → newest; "fastest", "quick delivery", "asap" →
// lead_time. The first phrase wins. ("sorted by price" is read here too, so "sorted" is never taken for
// a product word.)
import type { SearchSort } from '../../schemas/search.ts';
import { type Extractor } from './reading.ts';

const SORTS: readonly [RegExp, SearchSort][] = [
  [/\b(?:(?:sort(?:ed)?|order(?:ed)?|ranked)\s+by\s+)?(?:price\s+)?(?:from\s+)?high(?:est)?\s*(?:to|-|>)\s*low(?:est)?\b|\b(?:sort(?:ed)?|order(?:ed)?)\s+by\s+(?:highest|most expensive)(?:\s+price)?(?:\s+first)?|\bmost expensive(?:\s+first)?|\bhighest[- ]priced?(?:\s+first)?|\bhighest price(?:\s+first)?|\bpriciest\b|\bprice descending\b/gi, 'price_desc'],
  [/\b(?:(?:sort(?:ed)?|order(?:ed)?|ranked)\s+by\s+)?(?:price\s+)?(?:from\s+)?low(?:est)?\s*(?:to|-|>)\s*high(?:est)?\b|\b(?:sort(?:ed)?|order(?:ed)?|ranked)\s+by\s+(?:lowest\s+|cheapest\s+)?(?:unit\s+)?price(?:\s+first)?\b|\bcheapest(?:\s+first)?\b|\blowest[- ]priced?(?:\s+first)?\b|\blowest (?:unit )?price(?:\s+first)?\b|\bleast expensive\b|\bbest price\b|\bmost affordable\b|\blowest cost\b|\bon a budget\b|\bprice ascending\b/gi, 'price_asc'],
  [/\b(?:(?:sort(?:ed)?|order(?:ed)?)\s+by\s+)?(?:newest|latest|most recent|recently added|new arrivals?)(?:\s+first)?\b|\b(?:sort(?:ed)?|order(?:ed)?)\s+by\s+date\b/gi, 'newest'],
  [/\b(?:(?:sort(?:ed)?|order(?:ed)?)\s+by\s+)?(?:fastest|quickest|soonest|shortest lead[- ]time|quick|fast|rapid|express|speedy)(?:\s+(?:delivery|shipping|dispatch|lead[- ]time|turnaround))(?:\s+first)?\b|\bfastest\b|\bquickest\b|\bsoonest\b|\basap\b|\bas soon as possible\b|\bshortest lead[- ]time(?:\s+first)?\b|\b(?:sort(?:ed)?|order(?:ed)?)\s+by\s+(?:lead[- ]time|delivery(?: time)?)\b/gi, 'lead_time'],
];

/** "sorted newest first", "ordered cheapest first": a sort word before any sort phrase belongs to it. */
const SORT_WORD = /\b(?:sort(?:ed)?|order(?:ed)?|rank(?:ed)?|list(?:ed)?|show(?:n)?)(?:\s+by)?\s*:?\s+(?=(?:price\s+)?(?:from\s+)?(?:high|low|cheapest|lowest|least|highest|most|newest|latest|recently|new|fastest|quickest|soonest|shortest|quick|fast|ascending|descending)\b)/gi;

export const readSort: Extractor = ({ text, reading }) => {
  let sort = reading.sort;
  let first = Infinity;
  text = text.replace(SORT_WORD, ' ');
  for (const [pattern, hinted] of SORTS) {
    for (const match of text.matchAll(pattern)) {
      if ((match.index ?? 0) < first) {
        first = match.index ?? 0;
        sort = hinted;
      }
    }
    text = text.replace(pattern, ' ');
  }
  return { text, reading: { ...reading, sort } };
};
