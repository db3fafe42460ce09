// GET /v1/seller/feeds/{id} — one of the caller's feeds, with its progress. Handler: ./get.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Feed, FeedIdParams } from '../../shared/schemas/catalog.ts';
import { EXAMPLE_FEED } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getFeed',
  method: 'GET',
  path: '/v1/seller/feeds/{id}',
  handler: 'functions/seller-feeds/get.ts',
  summary: 'A feed’s status, counts, errors and warnings',
  description:
    '`awaiting_upload` → `queued` → `processing` → `completed` (bad rows skipped, listed in `errors`) or `failed` (fix what `failureReason` says, then `POST …/retry`). Poll every few seconds or await `feed.completed`/`feed.failed`.',
  tag: 'Seller feeds',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'feeds:read',
  rateLimited: true,
  request: { params: FeedIdParams },
  response: { status: 200, description: 'The feed' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Feed,
  examples: { response: EXAMPLE_FEED },
});
