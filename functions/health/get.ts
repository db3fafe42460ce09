// GET /health — readiness: the function runs and the table answers. No key, no rate limit.
import { checkTableReachable } from '../../shared/data/health.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async () => {
  await checkTableReachable();
  return { data: { status: 'ok' as const } };
});
