// Rejects what authenticate found wrong (401), then applies the route table's role guard (403). A
// route of another stage (the sandbox's test helpers, should one ever be deployed to a live stack)
// answers as if it did not exist.
import { config } from '../../config.ts';
import { servedOn } from '../../resources.ts';
import { errors } from '../errors.ts';
import type { ApiMiddleware } from '../api-state.ts';

export const authorize: ApiMiddleware = {
  name: 'authorize',
  before: ({ context: { api: state } }) => {
    if (!servedOn(config().STAGE)(state.route)) throw errors.notFound('No endpoint at this path and method; see /v1/openapi.json for the endpoints');
    if (state.route.auth !== 'apiKey') return;
    if (state.authProblem === 'missing') throw errors.missingApiKey();
    if (!state.caller) throw errors.invalidApiKey();
    if (!state.route.roles.includes(state.caller.role)) {
      throw errors.forbidden(`Agents with the ${state.caller.role} role may not call ${state.route.method} ${state.route.path}`);
    }
    // The scope check goes here, after the role guard: when route rows declare a `scope` and keys carry
    // scopes, a key without the row's scope is refused with 403 naming the scope it needs.
  },
};
