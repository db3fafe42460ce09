// Resolves the Authorization header to a caller, without rejecting yet: the rate limiter must first
// count the request (per agent, or per source IP when the key is missing or bad). authorize() rejects.
// Public routes resolve a key too when one is sent, so that an agent's requests count against the
// agent wherever they go; a bad key on a public route is simply ignored.
import type { MiddlewareObj } from '@middy/core';
import { config } from '../../config.ts';
import { findApiKey } from '../../data/agents.ts';
import { hashApiKey, isKeyOfEnvironment } from '../../domain/api-keys.ts';
import { cacheApiKey, cachedApiKey } from '../api-key-cache.ts';
import type { MiddyApiRequest } from '../api-state.ts';

const BEARER = /^Bearer +(\S+)\s*$/i;

export function authenticate(): MiddlewareObj {
  return {
    before: async (request) => {
      const { event, context } = request as unknown as MiddyApiRequest;
      const state = context.api;
      const { route } = state;
      if (route.auth !== 'apiKey' && !route.rateLimited) return;
      const header = event.headers?.authorization;
      if (header === undefined || header.trim() === '') {
        state.authProblem = 'missing';
        return;
      }
      const apiKey = BEARER.exec(header)?.[1];
      const { STAGE, API_KEY_CACHE_SECONDS } = config();
      if (!apiKey || !isKeyOfEnvironment(apiKey, STAGE)) {
        state.authProblem = 'invalid';
        return;
      }
      const hash = hashApiKey(apiKey);
      const nowMs = state.now.getTime();
      let item = cachedApiKey(hash, nowMs);
      if (!item) {
        item = await findApiKey(hash);
        if (item) cacheApiKey(hash, item, nowMs, API_KEY_CACHE_SECONDS);
      }
      if (!item || item.environment !== STAGE) {
        state.authProblem = 'invalid';
        return;
      }
      state.caller = { agentId: item.agentId, role: item.role, plan: item.plan, apiKeyHash: hash };
    },
  };
}
