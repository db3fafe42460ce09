// Resolves the Authorization header to a caller, without rejecting yet: the rate limiter must first
// count the request (per agent, or per source IP when the key is missing or bad). authorize() rejects.
// Public routes resolve a key too when one is sent, so that an agent's requests count against the
// agent wherever they go; a bad key on a public route is simply ignored.
import { resolveApiKey } from '../../domain/api-keys.ts';
import type { ApiMiddleware } from '../api-state.ts';

const BEARER = /^Bearer +(\S+)\s*$/i;

export const authenticate: ApiMiddleware = {
  name: 'authenticate',
  before: async ({ event, context: { api: state } }) => {
    const { route } = state;
    if (route.auth !== 'apiKey' && !route.rateLimited) return;
    const header = event.headers?.authorization;
    if (header === undefined || header.trim() === '') {
      state.authProblem = 'missing';
      return;
    }
    const apiKey = BEARER.exec(header)?.[1];
    const caller = apiKey ? await resolveApiKey(apiKey, state.now) : undefined;
    if (caller) state.caller = caller;
    else state.authProblem = 'invalid';
  },
};
