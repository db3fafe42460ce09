// POST /v1/seller/feeds/{id}/retry — process a failed feed again, optionally with a corrected file. Handler: ./retry.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CreateFeedJsonRequest, Feed, FeedIdParams, FeedWithUpload, INLINE_FEED_MAX_BYTES, presignedUploadAdvice, UploadFeedQuery } from '../../shared/schemas/catalog.ts';
import * as z from '../../shared/schemas/zod.ts';
import { EXAMPLE_FEED_ROW, EXAMPLE_QUEUED_FEED } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'retryFeed',
  method: 'POST',
  path: '/v1/seller/feeds/{id}/retry',
  handler: 'functions/seller-feeds/retry.ts',
  summary: 'Retry a failed feed, optionally with a corrected file',
  description:
    'Only a `failed` feed (409 otherwise): the stored file, or a corrected one sent as to `POST /v1/seller/feeds`. Counts and errors start over; `attempts` grows. Answers 202, `queued`.',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'feeds:write',
  rateLimited: true,
  request: { params: FeedIdParams, body: z.optional(CreateFeedJsonRequest), query: UploadFeedQuery },
  uploads: ['text/csv', 'multipart/form-data'],
  maxBodyBytes: INLINE_FEED_MAX_BYTES,
  tooLargeAdvice: presignedUploadAdvice,
  response: { status: 202, description: 'The feed, `queued` (or `awaiting_upload`)' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  feedFileActions: ['s3:PutObject', 's3:GetObject'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.union([Feed, FeedWithUpload]),
  examples: { body: { filename: 'catalog-2026-11.json', products: [EXAMPLE_FEED_ROW] }, response: { ...EXAMPLE_QUEUED_FEED, attempts: 1 } },
});
