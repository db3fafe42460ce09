// GET /v1/webhooks — the caller's subscriptions. Handler: ./list.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { page } from '../../shared/schemas/common.ts';
import { ListWebhooksQuery, WebhookSubscription } from '../../shared/schemas/webhooks.ts';
import { firstPage, PAGED, READ, type RouteTool, type QueryParams } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/v1/webhooks',
  handler: 'functions/webhooks/list.ts',
  summary: "The caller's subscriptions, newest first",
  description:
    'Newest first, a page at a time (`limit`, `cursor`).',
  tag: 'Webhooks',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'webhooks:read',
  rateLimited: true,
  request: { query: ListWebhooksQuery },
  response: { status: 200, description: 'A page of subscriptions' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(WebhookSubscription),
  examples: { query: { limit: '10' }, response: { items: [], nextCursor: null } },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'list_webhooks',
  title: 'List your webhooks',
  description: `Your webhook subscriptions: id, url, events, active. ${PAGED}`,
  annotations: READ,
  call: (mk, args) => firstPage(mk.webhooks.list(args.query as QueryParams<'listWebhooks'>)),
});
