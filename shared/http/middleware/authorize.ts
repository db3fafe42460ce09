// Rejects what authenticate found wrong (401), then applies the route table's scope rule to the key
// (403 auth/insufficient-scope; shared/domain/scopes.ts) and its role guard to the agent (403). A
// request outside its key's scopes is told so first; a scope the key has never widens the role. A
// route of another stage (the sandbox's test helpers, should one ever be deployed to a live stack)
// answers as if it did not exist.
import { config } from '../../config.ts';
import { missingScope } from '../../domain/scopes.ts';
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
    const scope = missingScope(state.route, state.caller);
    if (scope) throw errors.insufficientScope(scope);
    if (!state.route.roles.includes(state.caller.role)) {
      throw errors.forbidden(`Agents with the ${state.caller.role} role may not call ${state.route.method} ${state.route.path}`);
    }
  },
};
