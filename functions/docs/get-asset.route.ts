// GET /docs/assets/{file} — the reference page's files (Redoc and the module that starts it), named by content hash. Handler: ./get-asset.ts
import * as z from 'zod';
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getReferenceAsset',
  method: 'GET',
  path: '/docs/assets/{file}',
  handler: 'functions/docs/get-asset.ts',
  summary: 'A file of the API reference page (JavaScript), cacheable for a year; brotli or gzip when accepted',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  rateLimited: false,
  request: { params: z.object({ file: z.string().meta({ description: 'The file name, as the reference page names it (it carries a hash of the content)' }) }) },
  response: {
    status: 200,
    description: 'The file (text/javascript), with Content-Encoding br or gzip when Accept-Encoding allows; 304 when If-None-Match names its ETag',
    schema: z.string(),
    raw: true,
  },
  handlerErrors: ['not-found'],
  tableActions: [],
  bundledFiles: ['reference-assets.json', 'reference-assets'],
});
