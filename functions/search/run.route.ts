// POST /v1/search — structured search over active products with an active offer. Handler: ./run.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { SearchRequest } from '../../shared/schemas/search.ts';
import { SearchPage } from '../../shared/schemas/search-results.ts';

export const route = defineRoute({
  operationId: 'search',
  method: 'POST',
  path: '/v1/search',
  handler: 'functions/search/run.ts',
  summary: 'Search with words, filters and a sort',
  description:
    'Active products with an active offer, by `query`, `filters` and `sort`. Next: `POST /v1/negotiate` with an item’s `offer.offerId`; the next page: the same request with `cursor`.',
  tag: 'Search',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'catalog:read',
  rateLimited: true,
  request: { body: SearchRequest },
  response: { status: 200, description: 'Matching items (as `POST /v1/search-intent` shows them; none under 9 EUR here)' },
  handlerErrors: [],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query'],
  searchIndexActions: ['s3:GetObject'],
  bundledFiles: ['search-words.json'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: SearchPage,
  examples: { body: { query: 'nitrile gloves', filters: { currency: 'EUR', maxPrice: 900, shipsFrom: 'DE' }, sort: 'price_asc', limit: 10 }, response: { items: [], nextCursor: null } },
});
