// Not a row of the API: what answers every request no row matches. A known path with a method it does
// not serve is 405 `method-not-allowed` with an Allow header (OPTIONS on it: 204 with Allow); an unknown
// path is the contract's 404. The CDK stack routes API Gateway's `$default` to it; the local gateway
// calls it for anything unmatched. It knows the paths from route-methods.json, the route table's
// methods and path templates, built at synth. Handler: ./not-found.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'routeNotFound',
  method: 'GET',
  path: '/{proxy+}',
  handler: 'functions/fallback/not-found.ts',
  summary: 'Any path or method that no route serves',
  description:
    'Answers a known path with a method it does not serve with 405 `method-not-allowed` and an Allow header (OPTIONS: 204 with Allow), and any other path with 404 `not-found`, in the error shape (not part of the API document).',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: true,
  request: { params: z.looseObject({}), query: z.looseObject({}) },
  response: { status: 200, description: 'Never: always 404 or 405 (OPTIONS: 204)' },
  handlerErrors: ['not-found', 'method-not-allowed'],
  tableActions: [],
  bundledFiles: ['route-methods.json'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.never(),
  examples: { response: null },
});
