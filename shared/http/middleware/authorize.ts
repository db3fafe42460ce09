// Rejects what authenticate found wrong (401), then applies the route table's role guard (403) and
// its scope rule (403 auth/insufficient-scope; shared/domain/scopes.ts).
import { missingScope } from '../../domain/scopes.ts';
import { errors } from '../errors.ts';
import type { ApiStep } from '../api-state.ts';

export const authorize: ApiStep = {
  name: 'authorize',
  before: ({ state }) => {
    if (state.route.auth !== 'apiKey') return;
    if (state.authProblem === 'missing') throw errors.missingApiKey();
    if (!state.caller) throw errors.invalidApiKey();
    if (!state.route.roles.includes(state.caller.role)) {
      throw errors.forbidden(`Agents with the ${state.caller.role} role may not call ${state.route.method} ${state.route.path}`);
    }
    const scope = missingScope(state.route, state.caller);
    if (scope) throw errors.insufficientScope(scope);
  },
};
