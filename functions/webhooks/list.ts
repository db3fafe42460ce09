// GET /v1/webhooks — the caller's subscriptions, newest first, cursor-paginated.
import { decodeCursor, encodeCursor } from '../../shared/data/cursor.ts';
import { listSubscriptions, toSubscription } from '../../shared/data/webhook-subscriptions.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = apiHandler(routes.listWebhooks, async ({ caller, query }) => {
  const scope = `webhooks:${caller.agentId}`;
  const { items, lastKey } = await listSubscriptions(caller.agentId, query.limit, decodeCursor(scope, query.cursor));
  return { data: { items: items.map(toSubscription), nextCursor: encodeCursor(scope, lastKey) } };
});
