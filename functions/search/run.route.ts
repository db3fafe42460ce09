// POST /v1/search — structured search over active products with an active offer. Handler: ./run.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { SearchPage, SearchRequest } from '../../shared/schemas/search.ts';

export const route = defineRoute({
  operationId: 'search',
  method: 'POST',
  path: '/v1/search',
  handler: 'functions/search/run.ts',
  summary: 'Search the catalog with words, filters (category prefix, seller, brand, price in one currency, stock, origin, lead time, attributes) and a sort',
  tag: 'Search',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { body: SearchRequest },
  response: { status: 200, description: 'A page of matching items; pass nextCursor with the same search for the next', schema: SearchPage },
  handlerErrors: [],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query'],
  searchIndexActions: ['s3:GetObject'],
  bundledFiles: ['search-words.json'],
});
