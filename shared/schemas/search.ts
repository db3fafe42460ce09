// Search requests and results (contract §3 "Search"): structured filters, plain-language intents and
// what was understood of them. An intent's interpretation uses exactly the filter shape of /v1/search,
// so an agent can correct it and send it back as a structured search.
import * as z from './zod.ts';
import { Category, Offer, Product } from './catalog.ts';
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
    minPrice: z.annotated(z.optional(Amount), { description: 'Lowest unit price in the minor unit of `currency` (needs currency)' }),
    maxPrice: z.annotated(z.optional(Amount), { description: 'Highest unit price in the minor unit of `currency` (needs currency)' }),
    pricePer: z.annotated(z.optional(z.enum(['unit', 'piece'], { error: 'Must be unit or piece' })), {
      description: 'What minPrice and maxPrice bound: unit (default), the price of one unit sold; piece, the price of one piece, the unit price ÷ packSize (a box of 100 at 12.00 EUR is 0.12 EUR a piece)',
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
  description:
    'full (default): every product and offer field; compact: what choosing an offer needs — the product without description, imageUrls, status, sourceFeedId and timestamps, the offer without the ids and status it repeats and its timestamps (validUntil stays)',
}))();
/** Product fields a compact search item leaves out. */
export const COMPACT_PRODUCT_OMITS = { description: true, imageUrls: true, status: true, sourceFeedId: true, createdAt: true, updatedAt: true } as const;
/** Offer fields a compact search item leaves out (the product carries the ids; a search finds active offers only). */
export const COMPACT_OFFER_OMITS = { productId: true, sellerId: true, status: true, createdAt: true, updatedAt: true } as const;

/** Longest accepted cursor: a search cursor carries the ids already returned (see docs/search.md). */
const SEARCH_CURSOR_MAX = 100_000;

export const SearchRequest = /* @__PURE__ */ (() => z.annotated(z.strictObject({
    query: z.annotated(z.optional(text({ max: 500 })), { description: 'Words to match in titles, brands, categories, attributes, descriptions', example: 'nitrile gloves' }),
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
      keywords: z.annotated(z.array(echoed(INTENT_MAX)), { maxItems: INTENT_MAX, description: 'Product words of the request (interpretation.keywords; for /v1/search, the query\'s)' }),
      filters: z.annotated(z.array(echoed(64)), { maxItems: 20, description: 'Filter names of the request (`quantity`: an intent\'s quantity)' }),
    }), { id, description });

/** One shape for what an item satisfies and what it lacks: the document describes it once (SearchItemWords). */
const SearchItemWords = /* @__PURE__ */ (() => ItemWordsAndFilters('SearchItemWords', 'Words and filters of the request'))();
export const SearchItemMatched = /* @__PURE__ */ (() => z.withMeta(SearchItemWords, { description: 'What this item satisfies' }))();
export const SearchItemRelaxed = /* @__PURE__ */ (() => z.withMeta(SearchItemWords, {
  description: 'What this item does not satisfy: words and filters dropped to find anything (empty when it satisfies all)',
}))();

export const SearchItem = /* @__PURE__ */ (() => z.annotated(z.object({
    product: Product,
    offer: Offer,
    score: z.annotated(z.number(), { description: 'Text relevance (higher is better); 0 without words', minimum: 0 }),
    matched: SearchItemMatched,
    relaxed: SearchItemRelaxed,
  }), { id: 'SearchItem' }))();

export const SearchItemCompact = /* @__PURE__ */ (() => z.annotated(z.object({
    product: z.annotated(z.omit(Product, COMPACT_PRODUCT_OMITS), { id: 'ProductCompact', description: 'The product without description, imageUrls, status, sourceFeedId and timestamps' }),
    offer: z.annotated(z.omit(Offer, COMPACT_OFFER_OMITS), { id: 'OfferCompact', description: 'The offer without productId, sellerId and status (the product’s) and timestamps' }),
    score: z.annotated(z.number(), { description: 'Text relevance (higher is better); 0 without words', minimum: 0 }),
    matched: SearchItemMatched,
    relaxed: SearchItemRelaxed,
  }), { id: 'SearchItemCompact', description: 'A search item with `fields: "compact"`' }))();

export const SearchPage = /* @__PURE__ */ (() => z.annotated(z.object({
    items: z.annotated(z.array(z.union([SearchItem, SearchItemCompact])), { maxItems: 100, description: 'SearchItem; SearchItemCompact with `fields: "compact"`' }),
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
    type: z.annotated(z.enum(SEARCH_NOTE_TYPES), {
      description: 'currency-relaxed: no product in the request’s currency matched, and the items are priced in others; price-relaxed: the items cost more (or less) than the request’s bound; price-per-piece: the price bounds compare the unit price ÷ packSize',
    }),
    message: echoed(2000, { description: 'What it means for the items, in words' }),
  }), { id: 'SearchNote', example: { type: 'currency-relaxed', message: 'No product priced in USD matches "safety glasses"; these items are priced in EUR and JPY, and not held to at most 5.00 USD: prices in different currencies are never compared' } }))();

export const Interpretation = /* @__PURE__ */ (() => z.annotated(z.object({
    keywords: z.annotated(z.array(bounded(INTENT_MAX)), {
      maxItems: INTENT_MAX,
      description: 'Product words read (after `corrections`); an item matches a word it holds, stemmed, or a variant or synonym',
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
      { description: 'A total budget ("budget 500 EUR total"), minor units; with the quantity it sets filters.maxPrice' },
    ),
    corrections: z.annotated(z.array(SearchCorrection), { maxItems: INTENT_MAX, description: 'Words read otherwise than typed' }),
    relaxed: z.annotated(z.object({
        keywords: z.annotated(z.array(echoed(INTENT_MAX)), { maxItems: INTENT_MAX, description: 'Words dropped: no product has them with the rest (never the main one)' }),
        filters: z.annotated(z.record(echoed(64), z.unknown()), { description: 'Filters dropped to find anything, with their values' }),
      }), { description: 'What was dropped to find anything; each item’s `relaxed` says what it lacks' }),
    unparsed: z.annotated(z.array(bounded(INTENT_MAX)), { maxItems: INTENT_MAX, description: 'Words not understood (not catalog or English words, not correctable)' }),
    notes: z.annotated(z.array(SearchNote), {
      maxItems: SEARCH_NOTE_TYPES.length,
      description: 'What to know about the items’ prices before acting on them: items in another currency than asked for, over the price asked for, or compared per piece. Empty when the items are what was asked',
    }),
  }), { id: 'Interpretation' }))();

/** At most this many suggestions accompany an empty answer. */
export const MAX_SUGGESTIONS = 20;

export const SEARCH_SUGGESTION_TYPES = ['loosen-filter', 'drop-keyword', 'try-keyword', 'browse-category'] as const;

export const SearchSuggestion = /* @__PURE__ */ (() => z.annotated(z.object({
    type: z.annotated(z.enum(SEARCH_SUGGESTION_TYPES), {
      description: 'loosen-filter: products match without these filters; drop-keyword: without this word; try-keyword: a catalog word near an unmatched one; browse-category: a category the catalog has',
    }),
    value: echoed(INTENT_MAX, { description: 'The filter name(s), word or category path' }),
    message: echoed(2000, { description: 'What to change, in words' }),
  }), { id: 'SearchSuggestion', example: { type: 'loosen-filter', value: 'shipsFrom', message: 'No product matches from DE; without shipsFrom, products match' } }))();

export const SearchIntentPage = /* @__PURE__ */ (() => z.annotated(z.extend(SearchPage, {
  interpretation: Interpretation,
  suggestions: z.annotated(z.array(SearchSuggestion), { maxItems: MAX_SUGGESTIONS, description: 'When nothing matches: what would find something (each checked); empty otherwise' }),
}), { id: 'SearchIntentPage' }))();

export { Category };
