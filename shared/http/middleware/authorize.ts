// Rejects what authenticate found wrong (401), then applies the route table's role guard (403). The
// scope a route row declares is checked here too, after the role guard, once keys carry scopes.
import { errors } from '../errors.ts';
import type { ApiMiddleware } from '../api-state.ts';

export const authorize: ApiMiddleware = {
  name: 'authorize',
  before: ({ context: { api: state } }) => {
    if (state.route.auth !== 'apiKey') return;
    if (state.authProblem === 'missing') throw errors.missingApiKey();
    if (!state.caller) throw errors.invalidApiKey();
    if (!state.route.roles.includes(state.caller.role)) {
      throw errors.forbidden(`Agents with the ${state.caller.role} role may not call ${state.route.method} ${state.route.path}`);
    }
  },
};
