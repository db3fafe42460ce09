// Rejects what authenticate found wrong (401), then applies the route table's role guard (403).
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
    // The scope check goes here, after the role guard: when route rows declare a `scope` and keys carry
    // scopes, a key without the row's scope is refused with 403 naming the scope it needs.
  },
};
