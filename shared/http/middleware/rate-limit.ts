// Counts every request (errors included) against its plan's fixed UTC minute and day windows:
// per agent when the key is valid, otherwise per source IP at Free rates (contract §2). An MCP tool's
// API call is not counted again: the agent's POST /mcp request that carried it was (counted-calls.ts).
import { consume, type Limits } from '../../data/rate-limits.ts';
import type { Plan } from '../../schemas/agents.ts';
import { COUNTED_CALL_HEADER, isCountedCall } from '../counted-calls.ts';
import { errors } from '../errors.ts';
import type { ApiMiddleware } from '../api-state.ts';

export const PLAN_LIMITS: Record<Plan, Limits | 'unlimited'> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 600, perDay: 100_000 },
  enterprise: 'unlimited',
};

export const rateLimit: ApiMiddleware = {
  name: 'rateLimit',
  before: async ({ event, context: { api: state } }) => {
    if (!state.route.rateLimited) return;
    const caller = state.caller;
    if (caller && isCountedCall(event.headers?.[COUNTED_CALL_HEADER], caller.agentId, state.now)) return;
    const limits = PLAN_LIMITS[caller?.plan ?? 'free'];
    if (limits === 'unlimited') {
      state.rateLimit = 'unlimited';
      return;
    }
    const subject = caller ? `agent#${caller.agentId}` : `ip#${state.sourceIp}`;
    const outcome = await consume(subject, limits, state.now);
    state.rateLimit = outcome;
    if (!outcome.allowed) {
      const nowSeconds = Math.floor(state.now.getTime() / 1000);
      const blocking = [outcome.minute, outcome.day].filter((window) => window.remaining === 0);
      const resetAt = Math.max(...blocking.map((window) => window.resetAt));
      throw errors.rateLimited(Math.max(1, resetAt - nowSeconds));
    }
  },
};
