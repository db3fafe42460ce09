// GET /docs/assets/{file} — the reference page's files (Redoc and the module that starts it), named by content hash. Handler: ./get-asset.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getReferenceAsset',
  method: 'GET',
  path: '/docs/assets/{file}',
  handler: 'functions/docs/get-asset.ts',
  summary: 'A file of the reference page',
  description:
    'Named by the reference page; cacheable for a year (the name changes with the content).',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: false,
  request: { params: z.strictObject({ file: z.annotated(
    z.string(),
    { maxLength: 200, pattern: '^[A-Za-z0-9._-]{1,200}$', example: 'reference.5d41402abc.js', description: 'The file name, as the reference page names it (it carries a hash of the content)' },
  ) }) },
  response: {
    status: 200,
    description: 'The file (text/javascript; br or gzip as Accept-Encoding allows; 304 when If-None-Match names its ETag)',
    raw: true,
  },
  handlerErrors: ['not-found'],
  tableActions: [],
  pageForPeople: true,
  bundledFiles: ['reference-assets.json', 'reference-assets'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.annotated(z.string(), { maxLength: 6_000_000, pattern: '^[\\s\\S]*$' }),
  examples: { response: '/* Redoc */…' },
});
