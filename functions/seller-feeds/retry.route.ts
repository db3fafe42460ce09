// POST /v1/seller/feeds/{id}/retry — process a failed feed again, optionally with a corrected file. Handler: ./retry.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { CreateFeedJsonRequest, Feed, FeedIdParams, FeedWithUpload, INLINE_FEED_MAX_BYTES, presignedUploadAdvice, UploadFeedQuery } from '../../shared/schemas/catalog.ts';
import * as z from 'zod';

export const route = defineRoute({
  operationId: 'retryFeed',
  method: 'POST',
  path: '/v1/seller/feeds/{id}/retry',
  handler: 'functions/seller-feeds/retry.ts',
  summary: 'Retry a failed feed: with no body the stored file is processed again; with a file (any upload mode) the corrected file replaces it',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  rateLimited: true,
  request: { params: FeedIdParams, body: CreateFeedJsonRequest.optional(), query: UploadFeedQuery },
  uploads: ['text/csv', 'multipart/form-data'],
  maxBodyBytes: INLINE_FEED_MAX_BYTES,
  tooLargeAdvice: presignedUploadAdvice,
  response: { status: 202, description: 'The feed, queued again (or awaiting its presigned upload)', schema: z.union([Feed, FeedWithUpload]) },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  feedFileActions: ['s3:PutObject', 's3:GetObject'],
});
