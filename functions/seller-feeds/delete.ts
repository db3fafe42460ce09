// DELETE /v1/seller/feeds/{id} — record and stored files go; products stay.
import { deleteOwnFeed } from '../../shared/domain/feeds.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './delete.route.ts';

export const handler = apiHandler(route, async ({ caller, params }) => {
  await deleteOwnFeed(caller.agentId, params.id);
  return { data: { id: params.id, deleted: true as const } };
});
