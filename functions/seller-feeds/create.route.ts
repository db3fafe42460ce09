// POST /v1/seller/feeds — upload a catalog feed (CSV body, JSON products, multipart file, or a presigned upload). Handler: ./create.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { CreateFeedJsonRequest, Feed, FeedWithUpload, INLINE_FEED_MAX_BYTES, presignedUploadAdvice, UploadFeedQuery } from '../../shared/schemas/catalog.ts';
import * as z from 'zod';

export const route = defineRoute({
  operationId: 'uploadFeed',
  method: 'POST',
  path: '/v1/seller/feeds',
  handler: 'functions/seller-feeds/create.ts',
  summary: 'Upload a catalog feed: a text/csv body, a JSON body {products}, multipart/form-data with a file part (each up to 5 MiB), or {format, upload: "presigned"} for a file up to 100 MiB',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  rateLimited: true,
  request: { body: CreateFeedJsonRequest, query: UploadFeedQuery },
  uploads: ['text/csv', 'multipart/form-data'],
  maxBodyBytes: INLINE_FEED_MAX_BYTES,
  tooLargeAdvice: presignedUploadAdvice,
  response: { status: 202, description: 'The feed, queued for processing (or awaiting its presigned upload, with uploadUrl)', schema: z.union([Feed, FeedWithUpload]) },
  handlerErrors: [],
  tableActions: ['dynamodb:PutItem'],
  feedFileActions: ['s3:PutObject'],
});
