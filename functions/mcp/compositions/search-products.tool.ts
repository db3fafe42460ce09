// search_products: one tool for both searches, a plain-language intent (POST /v1/search-intent) or
// words, filters and a sort (POST /v1/search), not both (docs/decisions/mcp-compositions.md); its
// result has the fields of either page (`interpretation` with an intent).
import * as searchIntentModule from '../../search-intent/run.route.ts';
import * as searchModule from '../../search/run.route.ts';
import { withDocument } from '../../../shared/http/route-table.ts';
import { SearchIntentRequest, SearchRequest } from '../../../shared/schemas/search.ts';
import type * as z from '../../../shared/schemas/zod.ts';
import { MONEY, PAGED, READ, defineTool, firstPage, type RequestBody } from '../tool-declaration.ts';
import { argumentsSchema, problemsOf, propertyOf, toolInput, type ArgumentsSchema, type Parsed, type ToolInput } from '../tool-arguments.ts';
import { dataOf, eitherObject, toolOutput } from '../tool-results.ts';


type SearchArguments = { mode: 'intent'; body: RequestBody<'searchIntent'> } | { mode: 'query'; body: RequestBody<'search'> };

const STRUCTURED_SEARCH_FIELDS = ['query', 'filters', 'sort'] as const;

const searchInput: ToolInput<SearchArguments> = toolInput(
  () => {
    const structured = argumentsSchema([SearchRequest]);
    return {
      ...structured,
      properties: {
        intent: { ...propertyOf(SearchIntentRequest, 'intent'), description: 'What you need in plain language, e.g. "500 nitrile gloves under 0.15 EUR each from Germany within 10 days". Use either intent, or query with filters and sort' },
        ...structured.properties,
        fields: { ...propertyOf(SearchRequest, 'fields'), description: 'compact (the default here): each item without descriptions, image URLs, timestamps and repeated ids; full: every field (or get_product for one)' },
      },
    } satisfies ArgumentsSchema;
  },
  (args): Parsed<SearchArguments> => {
    const check = <S extends z.ZodMiniType>(schema: S) => schema.safeParse(args);
    if ('intent' in args) {
      const mixed = STRUCTURED_SEARCH_FIELDS.filter((name) => name in args);
      if (mixed.length > 0) return { ok: false, problems: mixed.map((name) => ({ path: name, message: 'Send either intent (plain language) or query, filters and sort (structured), not both' })) };
      const parsed = check(SearchIntentRequest);
      return parsed.success ? { ok: true, value: { mode: 'intent', body: args as RequestBody<'searchIntent'> } } : { ok: false, problems: problemsOf(parsed.error) };
    }
    const parsed = check(SearchRequest);
    return parsed.success ? { ok: true, value: { mode: 'query', body: args } } : { ok: false, problems: problemsOf(parsed.error) };
  },
);

export const tool = defineTool({
  name: 'search_products',
  title: 'Search products',
  description: `Find products and their standing offers. Either say what you need in plain language with intent ("500 nitrile gloves under 0.15 EUR each from Germany within 10 days": quantity, price ceiling, origin and lead time are read into filters, and the answer's interpretation says what was understood), or search structurally with query (words), filters (category, brand, sellerId, minPrice/maxPrice per unit with currency, minAvailableQuantity, shipsFrom, maxLeadTimeDays, attributes) and sort. Each item is {product, offer, score, matched, relaxed}, compact unless fields is full. ${MONEY} ${PAGED} Next: get_offer or get_product for details; a buyer opens a negotiation with start_negotiation on the offer's offerId.`,
  routes: [searchIntentModule.route, searchModule.route],
  input: searchInput,
  output: toolOutput(() => eitherObject(dataOf(withDocument(searchIntentModule)), dataOf(withDocument(searchModule)))),
  annotations: READ,
  // A search changes nothing: no Idempotency-Key, so that the API stores no answer for it. Items are
  // compact unless asked otherwise: a model pays for every byte (docs/decisions/mcp-compact-tool-list.md).
  call: (mk, args) =>
    firstPage(
      args.mode === 'intent'
        ? mk.search.intent({ ...args.body, fields: args.body.fields ?? 'compact' }, { idempotencyKey: null })
        : mk.search.query({ ...args.body, fields: args.body.fields ?? 'compact' }, { idempotencyKey: null }),
    ),
});
