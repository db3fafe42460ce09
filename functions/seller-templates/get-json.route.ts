// GET /v1/seller/templates/json — the JSON feed template. Handler: ./get-json.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { FeedTemplate } from '../../shared/schemas/catalog.ts';
import { EXAMPLE_JSON_TEMPLATE } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getJsonFeedTemplate',
  method: 'GET',
  path: '/v1/seller/templates/json',
  handler: 'functions/seller-templates/get-json.ts',
  summary: 'The JSON feed template',
  description:
    '`fields` describes every field; `content` is a valid feed (prices as Money). `Accept: application/json` alone gives the raw file. Next: `POST /v1/seller/feeds`.',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'feeds:write',
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The template', rawContentType: 'application/json' },
  handlerErrors: [],
  tableActions: [],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: FeedTemplate,
  examples: { response: EXAMPLE_JSON_TEMPLATE },
});
