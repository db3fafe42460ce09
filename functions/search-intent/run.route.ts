// POST /v1/search-intent — search by a plain-language intent, with what was understood. Handler: ./run.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { SearchIntentRequest } from '../../shared/schemas/search.ts';
import { SearchIntentPage } from '../../shared/schemas/search-results.ts';
import { EXAMPLE_OFFER, EXAMPLE_PRODUCT } from '../../shared/schemas/examples.ts';
import { OfferCompact, ProductCompact } from '../../shared/schemas/catalog.ts';

/** An example record as a compact search item shows it. */
const compact = (record: object, schema: { shape: object }) => Object.fromEntries(Object.entries(record).filter(([name]) => name in schema.shape));

export const route = defineRoute({
  operationId: 'searchIntent',
  method: 'POST',
  path: '/v1/search-intent',
  handler: 'functions/search-intent/run.ts',
  summary: 'Search by a plain-language intent',
  description:
    'Quantity, price ceiling ("under 13 EUR each": `maxPrice` 1300), origin, lead time, sort hints and product words become filters, shown in `interpretation` as `POST /v1/search` takes them. Next: `POST /v1/negotiate` with an item’s `offer.offerId`.',
  tag: 'Search',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'catalog:read',
  rateLimited: true,
  request: { body: SearchIntentRequest },
  response: { status: 200, description: 'Matching items and the interpretation' },
  handlerErrors: [],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query'],
  searchIndexActions: ['s3:GetObject'],
  bundledFiles: ['search-words.json'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: SearchIntentPage,
  examples: { body: { intent: '500 boxes of nitrile gloves under 13 EUR each from Germany within 5 days', limit: 5, fields: 'compact' }, response: { items: [{ product: compact(EXAMPLE_PRODUCT, ProductCompact), offer: compact(EXAMPLE_OFFER, OfferCompact), score: 7.42, matched: { keywords: ['nitrile', 'gloves'], filters: ['quantity', 'maxPrice', 'currency', 'maxLeadTimeDays', 'shipsFrom'] }, relaxed: { keywords: [], filters: [] } }], nextCursor: null, interpretation: { keywords: ['nitrile', 'gloves'], quantity: 500, filters: { maxPrice: 1300, currency: 'EUR', maxLeadTimeDays: 5, shipsFrom: 'DE' }, sort: 'relevance', excluded: [], budget: null, corrections: [], relaxed: { keywords: [], filters: {} }, unparsed: [], notes: [] }, suggestions: [] } },
});
