// GET /docs — the API reference page (HTML): Redoc rendering /v1/openapi.json, its files served by GET /docs/assets/{file}. Handler: ./get.ts
import * as z from 'zod';
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getReference',
  method: 'GET',
  path: '/docs',
  handler: 'functions/docs/get.ts',
  summary: 'The API reference: every operation and webhook event, searchable (HTML)',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  rateLimited: false,
  request: {},
  response: { status: 200, description: 'The reference page (text/html)', schema: z.string(), raw: true },
  handlerErrors: [],
  tableActions: [],
  bundledFiles: ['reference-assets.json'],
});
