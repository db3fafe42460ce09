// Search requests and results (contract §3 "Search"): structured filters, plain-language intents and
// what was understood of them. An intent's interpretation uses exactly the filter shape of /v1/search,
// so an agent can correct it and send it back as a structured search.
import * as z from './zod.ts';
import { Category, Offer, OfferCompact, Product, ProductCompact } from './catalog.ts';
import { CountryCode, TEXT_PATTERN_SINGLE_LINE, bounded, boundedInt, text } from './common.ts';
import { Amount, CurrencyCode, MAX_AMOUNT } from './money.ts';

export const SEARCH_SORTS = ['relevance', 'price_asc', 'price_desc', 'newest', 'lead_time'] as const;
export const SearchSort = /* @__PURE__ */ (() => z.annotated(z.enum(SEARCH_SORTS), {
  id: 'SearchSort',
  description: 'relevance (default; newest first without a query), price_asc, price_desc (unit price within each currency), newest, lead_time (shortest first; extension)',
}))();
export type SearchSort = z.infer<typeof SearchSort>;

const BRAND_MAX = 100;
/** Longest intent: every word of an interpretation comes from it. */
const INTENT_MAX = 1000;
const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const SearchFilters = /* @__PURE__ */ (() => z.annotated(z.strictObject({
    category: z.annotated(z.optional(Category), { description: 'A category path prefix: safety matches safety/gloves' }),
    sellerId: z.annotated(z.optional(z.string().check(z.regex(/^agt_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be an agent id (agt_…)'))), { maxLength: 30 }),
    brand: z.annotated(z.optional(text({ min: 1, max: BRAND_MAX })), { description: 'Exact brand, case-insensitive' }),
    minPrice: z.annotated(z.optional(Amount), { description: 'Lowest price, in minor units of `currency`' }),
    maxPrice: z.annotated(z.optional(Amount), { description: 'Highest price, in minor units of `currency`' }),
    pricePer: z.annotated(z.optional(z.enum(['unit', 'piece'], { error: 'Must be unit or piece' })), {
      description: 'Bounds per unit (default) or piece: price ÷ packSize',
    }),
    currency: z.annotated(z.optional(CurrencyCode), { description: 'Only offers priced in this currency' }),
    minAvailableQuantity: z.optional(z.int('Must be a whole number').check(z.gte(1, 'Must be 1 or more'), z.lte(1_000_000_000))),
    shipsFrom: z.annotated(
      z.optional(z.union([CountryCode, z.array(CountryCode).check(z.minLength(1, 'Name at least one country'), z.maxLength(60, 'At most 60 countries'))])),
      { description: 'A country, or any of several (an intent reads "from the EU" as its member states)', example: 'DE' },
    ),
    maxLeadTimeDays: z.optional(z.int('Must be a whole number of days').check(z.gte(0, 'Must be 0 or more'), z.lte(365, 'Must be at most 365'))),
    attributes: z.annotated(z.optional(z.record(
        z.annotated(z.string().check(z.regex(ATTRIBUTE_NAME, 'Attribute names start with a letter and hold letters, digits, _ or - (at most 64)')), { maxLength: 64 }),
        z.union([z.string().check(z.maxLength(200)), z.number(), z.boolean()], { error: 'Must be a string, number or boolean' }),
      ).check(z.refine((attributes) => Object.keys(attributes).length <= 20, 'At most 20 attribute filters'))), { description: 'Exact attribute values (strings case-insensitive)' }),
  }).check(z.superRefine((filters, context) => {
    // Prices in different currencies are never compared: a price bound needs its currency.
    for (const field of ['minPrice', 'maxPrice'] as const) {
      if (filters[field] !== undefined && filters.currency === undefined) {
        context.addIssue({ code: 'custom', path: ['currency'], message: `Required with ${field}: prices are compared within one currency` });
        break;
      }
    }
    if (filters.pricePer !== undefined && filters.minPrice === undefined && filters.maxPrice === undefined) {
      context.addIssue({ code: 'custom', path: ['pricePer'], message: 'Only with minPrice or maxPrice: it says what they bound' });
    }
    if (filters.minPrice !== undefined && filters.maxPrice !== undefined && filters.minPrice > filters.maxPrice) {
      context.addIssue({ code: 'custom', path: ['minPrice'], message: 'Must not be above maxPrice' });
    }
  })), { id: 'SearchFilters' }))();
export type SearchFilters = z.infer<typeof SearchFilters>;

/** How much of each item a search returns (docs/decisions/search-fields.md). */
export const SEARCH_FIELDS = ['full', 'compact'] as const;
export const SearchFields = /* @__PURE__ */ (() => z.annotated(z.enum(SEARCH_FIELDS, { error: 'Must be full or compact' }), {
  id: 'SearchFields',
  description: 'full (default) or compact: SearchItemCompact',
}))();

/** Longest accepted cursor: a search cursor carries the ids already returned (see docs/search.md). */
const SEARCH_CURSOR_MAX = 100_000;

export const SearchRequest = /* @__PURE__ */ (() => z.annotated(z.strictObject({
    query: z.annotated(z.optional(text({ max: 500 })), { description: 'Words to match in the products’ text', example: 'nitrile gloves' }),
    filters: z.optional(SearchFilters),
    exclude: z.annotated(
      z.optional(z.array(text({ min: 1, max: 100 })).check(z.maxLength(20, 'At most 20 excluded words'))),
      { description: 'Words an item must not hold ("not latex", "latex-free")', example: ['latex'] },
    ),
    sort: z.optional(SearchSort),
    fields: z.optional(SearchFields),
    limit: z.annotated(z.optional(z.int('Must be a whole number').check(z.gte(1, 'Must be 1 to 100'), z.lte(100, 'Must be 1 to 100'))), { description: 'Page size, 1–100 (default 20)' }),
    cursor: z.annotated(
      z.optional(z.string().check(z.minLength(1), z.maxLength(SEARCH_CURSOR_MAX))),
      { description: 'nextCursor of the previous page of this search', pattern: '^[A-Za-z0-9_-]+$' },
    ),
  }), { id: 'SearchRequest' }))();
export type SearchRequest = z.infer<typeof SearchRequest>;

/** Words and names echoed from a request: single-line text, as the request's. */
const echoed = (maxLength: number, meta: { description?: string } = {}) => bounded(maxLength, { pattern: TEXT_PATTERN_SINGLE_LINE, ...meta });

export const SearchIntentRequest = /* @__PURE__ */ (() => z.annotated(z.strictObject({
    intent: z.withMeta(text({ min: 1, max: INTENT_MAX }), { example: '500 nitrile gloves under $0.12 each shipping from Germany within 10 days' }),
    limit: z.optional(z.int('Must be a whole number').check(z.gte(1, 'Must be 1 to 100'), z.lte(100, 'Must be 1 to 100'))),
    fields: z.optional(SearchFields),
    cursor: z.annotated(z.optional(z.string().check(z.minLength(1), z.maxLength(SEARCH_CURSOR_MAX))), { pattern: '^[A-Za-z0-9_-]+$' }),
  }), { id: 'SearchIntentRequest' }))();

const ItemWordsAndFilters = (id: string, description: string) =>
  z.annotated(z.object({
      keywords: z.annotated(z.array(echoed(INTENT_MAX)), { maxItems: INTENT_MAX, description: 'Product words of the request' }),
      filters: z.annotated(z.array(echoed(64)), { maxItems: 20, description: 'Filter names (`quantity`: an intent\'s quantity)' }),
    }), { id, description });

/** One shape for what an item satisfies and what it lacks: the document describes it once (SearchItemWords). */
const SearchItemWords = /* @__PURE__ */ (() => ItemWordsAndFilters('SearchItemWords', 'Words and filters of the request'))();
export const SearchItemMatched = /* @__PURE__ */ (() => z.withMeta(SearchItemWords, { description: 'What this item satisfies' }))();
export const SearchItemRelaxed = /* @__PURE__ */ (() => z.withMeta(SearchItemWords, { description: 'What this item lacks: words and filters dropped to find anything' }))();

/** What a search item says of its fit, whole or compact. */
export const SearchItemBase = /* @__PURE__ */ (() => z.annotated(z.object({
    score: z.annotated(z.number(), { description: 'Text relevance (higher is better); 0 without words', minimum: 0 }),
    matched: SearchItemMatched,
    relaxed: SearchItemRelaxed,
  }), { id: 'SearchItemBase' }))();

export const SearchItem = /* @__PURE__ */ (() => z.annotated(z.extend(SearchItemBase, { product: Product, offer: Offer }), { id: 'SearchItem' }))();
/** A search item with `fields: "compact"` (docs/decisions/search-fields.md). */
export const SearchItemCompact = /* @__PURE__ */ (() => z.annotated(z.extend(SearchItemBase, { product: ProductCompact, offer: OfferCompact }), { id: 'SearchItemCompact' }))();

export const SearchPage = /* @__PURE__ */ (() => z.annotated(z.object({
    items: z.annotated(z.array(z.union([SearchItem, SearchItemCompact])), { maxItems: 100 }),
    nextCursor: z.nullable(bounded(SEARCH_CURSOR_MAX, { pattern: '^[A-Za-z0-9_-]+$' })),
  }), { id: 'SearchPage' }))();

export const SearchCorrection = /* @__PURE__ */ (() => z.annotated(z.object({
    from: echoed(INTENT_MAX, { description: 'As typed' }),
    to: echoed(INTENT_MAX, { description: 'As read' }),
    kind: z.annotated(z.enum(['spelling', 'variant', 'synonym', 'country']), {
      description: 'spelling: a typo; variant: British/American; synonym: the catalog\'s word for one it lacks; country: a misspelt country',
    }),
  }), { id: 'SearchCorrection', example: { from: 'glvoes', to: 'gloves', kind: 'spelling' } }))();

export const SEARCH_NOTE_TYPES = ['currency-relaxed', 'price-relaxed', 'price-per-piece'] as const;

export const SearchNote = /* @__PURE__ */ (() => z.annotated(z.object({
    type: z.enum(SEARCH_NOTE_TYPES),
    message: echoed(2000),
  }), { id: 'SearchNote' }))();

export const Interpretation = /* @__PURE__ */ (() => z.annotated(z.object({
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
  }), { id: 'Interpretation' }))();

/** At most this many suggestions accompany an empty answer. */
export const MAX_SUGGESTIONS = 20;

export const SEARCH_SUGGESTION_TYPES = ['loosen-filter', 'drop-keyword', 'try-keyword', 'browse-category'] as const;

export const SearchSuggestion = /* @__PURE__ */ (() => z.annotated(z.object({
    type: z.annotated(z.enum(SEARCH_SUGGESTION_TYPES), {
      description: 'loosen-filter: match without these filters; drop-keyword: without this word; try-keyword: a catalog word near one unmatched; browse-category: a category',
    }),
    value: echoed(INTENT_MAX, { description: 'The filter name(s), word or category path' }),
    message: echoed(2000, { description: 'What to change, in words' }),
  }), { id: 'SearchSuggestion', example: { type: 'loosen-filter', value: 'shipsFrom', message: 'No product matches from DE; without shipsFrom, products match' } }))();

export const SearchIntentPage = /* @__PURE__ */ (() => z.annotated(z.extend(SearchPage, {
  interpretation: Interpretation,
  suggestions: z.annotated(z.array(SearchSuggestion), { maxItems: MAX_SUGGESTIONS, description: 'When nothing matches: what would find something (each checked); empty otherwise' }),
}), { id: 'SearchIntentPage' }))();

export { Category };
