// POST /v1/search-intent — search by a plain-language intent, with what was understood. Handler: ./run.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { SearchIntentPage, SearchIntentRequest } from '../../shared/schemas/search.ts';

export const route = defineRoute({
  operationId: 'searchIntent',
  method: 'POST',
  path: '/v1/search-intent',
  handler: 'functions/search-intent/run.ts',
  summary: 'Search by a plain-language intent: quantities, prices, origin, lead time, sort hints, brands and product words are read into filters; the interpretation says what was understood',
  tag: 'Search',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { body: SearchIntentRequest },
  response: { status: 200, description: 'A page of matching items and the interpretation (re-run it through /v1/search with corrections)', schema: SearchIntentPage },
  handlerErrors: [],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query'],
  searchIndexActions: ['s3:GetObject'],
  bundledFiles: ['search-words.json'],
});
