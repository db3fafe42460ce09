// GET /health — readiness probe. Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'health',
  method: 'GET',
  path: '/health',
  handler: 'functions/health/get.ts',
  summary: 'Readiness probe',
  description:
    'For load balancers and deploy checks: 500 when the function or its table fails.',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: false,
  request: {},
  response: { status: 200, description: 'Ready' },
  handlerErrors: [],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.object({ status: z.literal('ok') }),
  examples: { response: { status: 'ok' } },
});
