// GET /v1/seller/templates/csv — the CSV feed template. Handler: ./get-csv.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { FeedTemplate } from '../../shared/schemas/catalog.ts';

export const route = defineRoute({
  operationId: 'getCsvFeedTemplate',
  method: 'GET',
  path: '/v1/seller/templates/csv',
  handler: 'functions/seller-templates/get-csv.ts',
  summary: 'The CSV feed template: {format, filename, content, fields} in the envelope, or the raw file when Accept is text/csv alone',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The template; uploaded unchanged, its file is a valid feed', schema: FeedTemplate, rawContentType: 'text/csv' },
  handlerErrors: [],
  tableActions: [],
});
