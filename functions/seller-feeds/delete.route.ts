// DELETE /v1/seller/feeds/{id} — remove a feed and its stored file (never its products). Handler: ./delete.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { FeedIdParams } from '../../shared/schemas/catalog.ts';
import * as z from '../../shared/schemas/zod.ts';
import { idOf } from '../../shared/schemas/common.ts';
import { EXAMPLE_IDS } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'deleteFeed',
  method: 'DELETE',
  path: '/v1/seller/feeds/{id}',
  handler: 'functions/seller-feeds/delete.ts',
  summary: 'Delete a feed record and its stored file',
  description:
    'The products it loaded stay. 409 `conflict` while `queued` or `processing`.',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'feeds:write',
  rateLimited: true,
  request: { params: FeedIdParams },
  response: { status: 200, description: 'The feed is deleted' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:DeleteItem'],
  feedFileActions: ['s3:ListBucket', 's3:DeleteObject'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.object({ id: idOf('feed'), deleted: z.literal(true) }),
  examples: { response: { id: EXAMPLE_IDS.feed, deleted: true } },
});
