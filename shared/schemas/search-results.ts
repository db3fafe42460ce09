// What the two searches answer (POST /v1/search, POST /v1/search-intent): the pages, their items whole
// or compact, and the intent's interpretation. Only the route documents (routeDocument() beside the two
// rows) read these schemas, for the OpenAPI document, llms.txt and the MCP tools: no function uses this
// module, so no function's bundle holds it (package.json "sideEffects") or builds them at cold start.
import * as z from './zod.ts';
import { Offer, OfferCompact, Product, ProductCompact } from './catalog.ts';
import { TEXT_PATTERN_SINGLE_LINE, bounded, boundedInt } from './common.ts';
import { MAX_AMOUNT } from './money.ts';
import { INTENT_MAX, MAX_SUGGESTIONS, SEARCH_CURSOR_MAX, SEARCH_NOTE_TYPES, SEARCH_SUGGESTION_TYPES, SearchSort } from './search.ts';

/** Words and names echoed from a request: single-line text, as the request's. */
const echoed = (maxLength: number, meta: { description?: string } = {}) => bounded(maxLength, { pattern: TEXT_PATTERN_SINGLE_LINE, ...meta });

const ItemWordsAndFilters = (id: string, description: string) =>
  z.annotated(z.object({
    keywords: z.annotated(z.array(echoed(INTENT_MAX)), { maxItems: INTENT_MAX, description: 'Product words of the request' }),
    filters: z.annotated(z.array(echoed(64)), { maxItems: 20, description: 'Filter names (`quantity`: an intent\'s quantity)' }),
  }), { id, description });

/** One shape for what an item satisfies and what it lacks: the document describes it once (SearchItemWords). */
const SearchItemWords = ItemWordsAndFilters('SearchItemWords', 'Words and filters of the request');
export const SearchItemMatched = z.withMeta(SearchItemWords, { description: 'What this item satisfies' });
export const SearchItemRelaxed = z.withMeta(SearchItemWords, { description: 'What this item lacks: words and filters dropped to find anything' });

/** What a search item says of its fit, whole or compact. */
export const SearchItemBase = z.annotated(z.object({
  score: z.annotated(z.number(), { description: 'Text relevance (higher is better); 0 without words', minimum: 0 }),
  matched: SearchItemMatched,
  relaxed: SearchItemRelaxed,
}), { id: 'SearchItemBase' });

export const SearchItem = z.annotated(z.extend(SearchItemBase, { product: Product, offer: Offer }), { id: 'SearchItem' });
/** A search item with `fields: "compact"` (docs/decisions/search-fields.md). */
export const SearchItemCompact = z.annotated(z.extend(SearchItemBase, { product: ProductCompact, offer: OfferCompact }), { id: 'SearchItemCompact' });

export const SearchPage = z.annotated(z.object({
  items: z.annotated(z.array(z.union([SearchItem, SearchItemCompact])), { maxItems: 100 }),
  nextCursor: z.nullable(bounded(SEARCH_CURSOR_MAX, { pattern: '^[A-Za-z0-9_-]+$' })),
}), { id: 'SearchPage' });

export const SearchCorrection = z.annotated(z.object({
  from: echoed(INTENT_MAX, { description: 'As typed' }),
  to: echoed(INTENT_MAX, { description: 'As read' }),
  kind: z.annotated(z.enum(['spelling', 'variant', 'synonym', 'country']), {
    description: 'spelling: a typo; variant: British/American; synonym: the catalog\'s word for one it lacks; country: a misspelt country',
  }),
}), { id: 'SearchCorrection', example: { from: 'glvoes', to: 'gloves', kind: 'spelling' } });

export const SearchNote = z.annotated(z.object({
  type: z.enum(SEARCH_NOTE_TYPES),
  message: echoed(2000),
}), { id: 'SearchNote' });

export const Interpretation = z.annotated(z.object({
  keywords: z.annotated(z.array(bounded(INTENT_MAX)), {
    maxItems: INTENT_MAX,
    description: 'Product words read, after `corrections`; an item holds each, stemmed, or a synonym',
    example: ['nitrile', 'gloves'],
  }),
  quantity: z.annotated(z.nullable(boundedInt(1, Number.MAX_SAFE_INTEGER)), { description: 'Units wanted; items that cannot serve it are left out' }),
  filters: z.annotated(
    z.record(bounded(64), z.unknown()),
    { description: 'The filters applied, shaped as /v1/search filters', example: { maxPrice: 1300, currency: 'EUR', shipsFrom: 'DE', maxLeadTimeDays: 5 } },
  ),
  sort: SearchSort,
  excluded: z.annotated(z.array(echoed(INTENT_MAX)), { maxItems: INTENT_MAX, description: 'Words ruled out ("not latex", "latex-free")', example: ['latex'] }),
  budget: z.annotated(
    z.nullable(z.object({ amount: boundedInt(1, MAX_AMOUNT * 1_000_000), currency: bounded(3, { pattern: '^[A-Z]{3}$' }) })),
    { description: 'A total budget, minor units; with the quantity it sets filters.maxPrice' },
  ),
  corrections: z.annotated(z.array(SearchCorrection), { maxItems: INTENT_MAX, description: 'Words read otherwise than typed' }),
  relaxed: z.annotated(z.object({
      keywords: z.annotated(z.array(echoed(INTENT_MAX)), { maxItems: INTENT_MAX, description: 'Words dropped: no product has them with the rest' }),
      filters: z.annotated(z.record(echoed(64), z.unknown()), { description: 'Filters dropped to find anything, with their values' }),
    }), { description: 'What was dropped to find anything; each item’s `relaxed` says what it lacks' }),
  unparsed: z.annotated(z.array(bounded(INTENT_MAX)), { maxItems: INTENT_MAX, description: 'Words not understood' }),
  notes: z.annotated(z.array(SearchNote), { maxItems: SEARCH_NOTE_TYPES.length, description: 'What the items’ prices mean, in sentences' }),
}), { id: 'Interpretation' });

export const SearchSuggestion = z.annotated(z.object({
  type: z.annotated(z.enum(SEARCH_SUGGESTION_TYPES), {
    description: 'loosen-filter: match without these filters; drop-keyword: without this word; try-keyword: a catalog word near one unmatched; browse-category: a category',
  }),
  value: echoed(INTENT_MAX, { description: 'The filter name(s), word or category path' }),
  message: echoed(2000, { description: 'What to change, in words' }),
}), { id: 'SearchSuggestion', example: { type: 'loosen-filter', value: 'shipsFrom', message: 'No product matches from DE; without shipsFrom, products match' } });

export const SearchIntentPage = z.annotated(z.extend(SearchPage, {
  interpretation: Interpretation,
  suggestions: z.annotated(z.array(SearchSuggestion), { maxItems: MAX_SUGGESTIONS, description: 'When nothing matches: what would find something (each checked); empty otherwise' }),
}), { id: 'SearchIntentPage' });
