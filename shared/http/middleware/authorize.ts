// Rejects what authenticate() found wrong (401), then applies the route table's role guard (403).
import type { MiddlewareObj } from '@middy/core';
import { errors } from '../errors.ts';
import type { MiddyApiRequest } from '../api-state.ts';

export function authorize(): MiddlewareObj {
  return {
    before: (request) => {
      const { context } = request as unknown as MiddyApiRequest;
      const state = context.api;
      if (state.route.auth !== 'apiKey') return;
      if (state.authProblem === 'missing') throw errors.missingApiKey();
      if (!state.caller) throw errors.invalidApiKey();
      if (!state.route.roles.includes(state.caller.role)) {
        throw errors.forbidden(`Agents with the ${state.caller.role} role may not call ${state.route.method} ${state.route.path}`);
      }
    },
  };
}
