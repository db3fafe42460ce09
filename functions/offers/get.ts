// GET /v1/offers/{id} — what the caller may see of an offer.
import { getOfferForCaller } from '../../shared/domain/catalog.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, async ({ caller, params }) => ({ data: await getOfferForCaller(caller.agentId, params.id) }));
