// GET /v1/seller/feeds — the caller's feeds, newest first. Handler: ./list.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Feed, ListFeedsQuery } from '../../shared/schemas/catalog.ts';
import { page } from '../../shared/schemas/common.ts';

export const route = defineRoute({
  operationId: 'listFeeds',
  method: 'GET',
  path: '/v1/seller/feeds',
  handler: 'functions/seller-feeds/list.ts',
  summary: 'The seller’s feeds, newest first',
  description:
    'Newest first; `?status=` selects one status.',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'feeds:read',
  rateLimited: true,
  request: { query: ListFeedsQuery },
  response: { status: 200, description: 'A page of feeds' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(Feed),
  examples: { query: { status: 'failed' }, response: { items: [], nextCursor: null } },
});
