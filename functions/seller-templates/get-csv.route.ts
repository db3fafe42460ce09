// GET /v1/seller/templates/csv — the CSV feed template. Handler: ./get-csv.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { FeedTemplate } from '../../shared/schemas/catalog.ts';
import { EXAMPLE_CSV_TEMPLATE } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getCsvFeedTemplate',
  method: 'GET',
  path: '/v1/seller/templates/csv',
  handler: 'functions/seller-templates/get-csv.ts',
  summary: 'The CSV feed template',
  description:
    '`fields` describes every column; `content` is a valid feed. Prices are decimals in major units (`12.50`); `image_urls` separated by `|`, `attributes` as `key=value;key=value`. `Accept: text/csv` alone gives the raw file.',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'feeds:write',
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The template', rawContentType: 'text/csv' },
  handlerErrors: [],
  tableActions: [],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: FeedTemplate,
  examples: { response: EXAMPLE_CSV_TEMPLATE },
});
