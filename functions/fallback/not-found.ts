// Anything no route serves: the contract's 404, shaped (and counted) like every other response.
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './not-found.route.ts';

export const handler = apiHandler(route, () => {
  throw errors.notFound('No endpoint at this path and method; see /v1/openapi.json for the endpoints');
});
