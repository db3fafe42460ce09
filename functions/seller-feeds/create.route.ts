// POST /v1/seller/feeds — upload a catalog feed (CSV body, JSON products, multipart file, or a presigned upload). Handler: ./create.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CreateFeedJsonRequest, Feed, FeedWithUpload, INLINE_FEED_MAX_BYTES, presignedUploadAdvice, UploadFeedQuery } from '../../shared/schemas/catalog.ts';
import * as z from '../../shared/schemas/zod.ts';
import { EXAMPLE_FEED_ROW, EXAMPLE_QUEUED_FEED } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'uploadFeed',
  method: 'POST',
  path: '/v1/seller/feeds',
  handler: 'functions/seller-feeds/create.ts',
  summary: 'Upload a catalog feed (CSV, JSON, multipart or presigned)',
  description:
    'A `text/csv` body, JSON `{"products": [rows]}` or a multipart `file` (up to 5 MiB; about 4.4 MiB multipart when deployed); or `{"format", "upload": "presigned"}` for an `uploadUrl` to PUT the file to (up to 100 MiB, within 15 min). Each row (see the templates) upserts one product by `sku`, with its offer. Answers 202, `queued` (or `awaiting_upload`). Next: poll `GET /v1/seller/feeds/{feedId}` or await `feed.completed`/`feed.failed`.',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'feeds:write',
  rateLimited: true,
  request: { body: CreateFeedJsonRequest, query: UploadFeedQuery },
  uploads: ['text/csv', 'multipart/form-data'],
  maxBodyBytes: INLINE_FEED_MAX_BYTES,
  tooLargeAdvice: presignedUploadAdvice,
  response: { status: 202, description: 'The feed, `queued` (or `awaiting_upload`, with `uploadUrl`)' },
  handlerErrors: [],
  tableActions: ['dynamodb:PutItem'],
  feedFileActions: ['s3:PutObject'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.union([Feed, FeedWithUpload]),
  examples: { body: { filename: 'catalog-2026-11.json', products: [EXAMPLE_FEED_ROW] }, response: EXAMPLE_QUEUED_FEED },
});
