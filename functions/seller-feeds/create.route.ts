// POST /v1/seller/feeds — upload a catalog feed (CSV body, JSON products, multipart file, or a presigned upload). Handler: ./create.ts
import { defineRoute } from '../../shared/http/route-table.ts';
import { CreateFeedJsonRequest, Feed, FeedWithUpload, INLINE_FEED_MAX_BYTES, presignedUploadAdvice, UploadFeedQuery } from '../../shared/schemas/catalog.ts';
import * as z from 'zod';
import { EXAMPLE_FEED_ROW, EXAMPLE_QUEUED_FEED } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'uploadFeed',
  method: 'POST',
  path: '/v1/seller/feeds',
  handler: 'functions/seller-feeds/create.ts',
  summary: 'Upload a catalog feed (CSV, JSON, multipart or presigned)',
  description:
    'Uploads a catalog. Four ways: a `text/csv` body (`?filename=` names it); a JSON body `{"products": [rows]}`; `multipart/form-data` with a `file` part — each up to 5 MiB (deployed, about 4.4 MiB for multipart) — or `{"format": "csv"|"json", "upload": "presigned"}`, answered with `uploadUrl`: PUT the file there (up to 100 MiB, within 15 minutes, no Authorization header). Rows follow the templates: JSON prices are Money in minor units, CSV prices decimals in major units. Each row upserts one product (by `sku`) and its offer. Answers 202 with the feed `queued` (or `awaiting_upload`); then poll `GET /v1/seller/feeds/{feedId}` or await `feed.completed`/`feed.failed`.',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  rateLimited: true,
  request: { body: CreateFeedJsonRequest, query: UploadFeedQuery },
  uploads: ['text/csv', 'multipart/form-data'],
  maxBodyBytes: INLINE_FEED_MAX_BYTES,
  tooLargeAdvice: presignedUploadAdvice,
  response: { status: 202, description: 'The feed, queued for processing (or awaiting its presigned upload, with uploadUrl)', schema: z.union([Feed, FeedWithUpload]) },
  examples: { body: { filename: 'catalog-2026-11.json', products: [EXAMPLE_FEED_ROW] }, response: EXAMPLE_QUEUED_FEED },
  handlerErrors: [],
  tableActions: ['dynamodb:PutItem'],
  feedFileActions: ['s3:PutObject'],
});
