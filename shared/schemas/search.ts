// Search requests (contract §3 "Search"): structured filters and plain-language intents; what the
// searches answer is ./search-results.ts. An intent's interpretation uses exactly the filter shape of
// /v1/search, so an agent can correct it and send it back as a structured search.
import * as z from './zod.ts';
import { Category } from './catalog.ts';
import { CountryCode, text } from './common.ts';
import { Amount, CurrencyCode } from './money.ts';

export const SEARCH_SORTS = ['relevance', 'price_asc', 'price_desc', 'newest', 'lead_time'] as const;
export const SearchSort = z.annotated(z.enum(SEARCH_SORTS), {
  id: 'SearchSort',
  description: 'relevance (default; newest first without a query), price_asc, price_desc (unit price within each currency), newest, lead_time (shortest first; extension)',
});
export type SearchSort = z.infer<typeof SearchSort>;

const BRAND_MAX = 100;
/** Longest intent: every word of an interpretation comes from it. */
export const INTENT_MAX = 1000;
const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const SearchFilters = z.annotated(z.strictObject({
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
  })), { id: 'SearchFilters' });
export type SearchFilters = z.infer<typeof SearchFilters>;

/** How much of each item a search returns (docs/decisions/search-fields.md). */
export const SEARCH_FIELDS = ['full', 'compact'] as const;
export const SearchFields = z.annotated(z.enum(SEARCH_FIELDS, { error: 'Must be full or compact' }), {
  id: 'SearchFields',
  description: 'full (default) or compact: SearchItemCompact',
});

/** Longest accepted cursor: a search cursor carries the ids already returned (see docs/search.md). */
export const SEARCH_CURSOR_MAX = 100_000;

export const SearchRequest = z.annotated(z.strictObject({
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
}), { id: 'SearchRequest' });
export type SearchRequest = z.infer<typeof SearchRequest>;

export const SearchIntentRequest = z.annotated(z.strictObject({
  intent: z.withMeta(text({ min: 1, max: INTENT_MAX }), { example: '500 nitrile gloves under $0.12 each shipping from Germany within 10 days' }),
  limit: z.optional(z.int('Must be a whole number').check(z.gte(1, 'Must be 1 to 100'), z.lte(100, 'Must be 1 to 100'))),
  fields: z.optional(SearchFields),
  cursor: z.annotated(z.optional(z.string().check(z.minLength(1), z.maxLength(SEARCH_CURSOR_MAX))), { pattern: '^[A-Za-z0-9_-]+$' }),
}), { id: 'SearchIntentRequest' });

export const SEARCH_NOTE_TYPES = ['currency-relaxed', 'price-relaxed', 'price-per-piece'] as const;

/** At most this many suggestions accompany an empty answer. */
export const MAX_SUGGESTIONS = 20;

export const SEARCH_SUGGESTION_TYPES = ['loosen-filter', 'drop-keyword', 'try-keyword', 'browse-category'] as const;

export { Category };
