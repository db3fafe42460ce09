// GET /v1/openapi.json — this API as an OpenAPI 3.1 document. Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: '/v1/openapi.json',
  handler: 'functions/openapi/get.ts',
  summary: 'This API as an OpenAPI 3.1 document (not enveloped)',
  description:
    'Generated from the route table; `servers` names the origin the request came to.',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: true,
  request: {},
  response: { status: 200, description: 'The OpenAPI document', raw: true },
  handlerErrors: [],
  tableActions: [],
  bundledFiles: ['openapi.json'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.looseObject({ openapi: z.literal('3.1.0') }),
  examples: { response: { openapi: '3.1.0', info: { title: 'Agent Marketplace API', version: '1.0.0' }, paths: {} } },
});
