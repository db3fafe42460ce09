// GET /v1/seller/templates/json — the JSON feed template. Handler: ./get-json.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { FeedTemplate } from '../../shared/schemas/catalog.ts';

export const route = defineRoute({
  operationId: 'getJsonFeedTemplate',
  method: 'GET',
  path: '/v1/seller/templates/json',
  handler: 'functions/seller-templates/get-json.ts',
  summary: 'The JSON feed template: {format, filename, content, fields} in the envelope, or the raw file when Accept is application/json alone',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The template; uploaded unchanged, its file is a valid feed', schema: FeedTemplate, rawContentType: 'application/json' },
  handlerErrors: [],
  tableActions: [],
});
