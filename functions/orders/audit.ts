// GET /v1/orders/{id}/audit — the trail of every change, oldest first; parties only.
import { listAuditForCaller } from '../../shared/domain/orders.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './audit.route.ts';

export const handler = apiHandler(route, async ({ caller, params, query }) => ({ data: await listAuditForCaller(caller, params.id, query) }));
