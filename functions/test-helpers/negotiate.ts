// POST /v1/test-helpers/negotiations — the caller's own offers only (another's: 404); the house buyer of the strategy opens the session.
import { negotiateWithHouseBuyer } from '../../shared/domain/test-helpers.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './negotiate.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ data: await negotiateWithHouseBuyer(caller, body, now) }));
