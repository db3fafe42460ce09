// POST /v1/test-helpers/negotiations/{sessionId}/expire — parties only (anyone else: 404); the expiry is the sweep's, recorded now.
import { expireNegotiationNow } from '../../shared/domain/negotiations.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './expire-negotiation.route.ts';

export const handler = apiHandler(route, async ({ caller, params, now }) => ({ data: await expireNegotiationNow(caller, params.sessionId, now) }));
