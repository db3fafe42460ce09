// Anything no route serves, shaped (and counted) like every other response: a known path with another
// method is 405 with Allow, OPTIONS on a known path 204 with Allow, anything else the contract's 404.
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { RouteMethods, type RouteMethodsTable } from '../../shared/http/route-methods.ts';
import { readBundledFile } from '../../shared/resources.ts';
import { route } from './not-found.route.ts';

const routeMethods = new RouteMethods(JSON.parse(readBundledFile('route-methods.json', import.meta.url)) as RouteMethodsTable);

export const handler = apiHandler(route, ({ method, path }) => {
  const allowed = routeMethods.allowed(path);
  if (allowed.length === 0) throw errors.notFound('No endpoint at this path; see /v1/openapi.json for the endpoints');
  const allow = allowed.join(', ');
  if (method === 'OPTIONS') return Promise.resolve({ status: 204, headers: { Allow: allow }, raw: { body: '', contentType: 'text/plain; charset=utf-8' } });
  throw errors.methodNotAllowed(`${path} does not take ${method}; it takes ${allowed.join(' or ')} (see the Allow header and /v1/openapi.json)`, allow);
});
