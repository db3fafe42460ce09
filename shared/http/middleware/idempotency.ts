// Idempotency-Key on every POST (contract §1), after validation as at Stripe: a request that failed
// validation never ran, so nothing is stored for it. The same key with the same request replays the
// stored response (2xx and 4xx); a different request, or one still running, is 409. 5xx and transient
// refusals (a throttle, a collision with a concurrent write) are not stored: the claim is released.
import { createHash } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { claim, complete, release } from '../../data/idempotency-records.ts';
import { ApiError, errors, toApiError } from '../errors.ts';
import type { ApiState, HandlerResult, MiddyApiRequest } from '../api-state.ts';
import { errorBody } from './response-shaper.ts';

export const REPLAYED_HEADER = 'Idempotent-Replayed';

function fingerprint(state: ApiState, path: string): string {
  return createHash('sha256')
    .update(`${state.route.method} ${path}\n${JSON.stringify(state.parsedBody ?? null)}\n`)
    .update(state.upload && state.upload.mediaType !== 'application/json' ? state.upload.bytes : Buffer.alloc(0))
    .digest('hex');
}

export function idempotency(): MiddlewareObj {
  return {
    before: async (request) => {
      const { event, context } = request as unknown as MiddyApiRequest;
      const state = context.api;
      if (state.route.method !== 'POST') return;
      const key = event.headers?.['idempotency-key'];
      if (key === undefined) return;
      if (key.length < 1 || key.length > 255) {
        throw errors.invalid('Idempotency-Key must be 1 to 255 characters', [
          { path: 'Idempotency-Key', message: 'Must be 1 to 255 characters' },
        ]);
      }
      // Keys are per caller; registrations (no caller yet) are scoped by source address as well.
      const scope = state.caller ? state.caller.agentId : `public#${state.sourceIp}`;
      const outcome = await claim(scope, key, fingerprint(state, event.rawPath), state.now);
      switch (outcome.outcome) {
        case 'claimed':
          state.idempotency = { scope, key };
          return;
        case 'replay':
          state.idempotency = { scope, key, replay: outcome.response };
          return;
        case 'mismatch':
          throw errors.idempotencyConflict(
            'This Idempotency-Key was already used with a different request; send a new key for a new request',
          );
        case 'in-progress':
          throw errors.idempotencyConflict(
            'A request with this Idempotency-Key is still being processed; retry once it has finished',
          );
      }
    },
    after: async (request) => {
      const { context } = request as unknown as MiddyApiRequest;
      const record = context.api.idempotency;
      if (!record || record.replay) return;
      const result = request.response as HandlerResult;
      if (result.raw) {
        await release(record.scope, record.key); // raw bodies are not stored; a retry runs again
        return;
      }
      await complete(record.scope, record.key, {
        status: result.status ?? context.api.route.response.status,
        body: result.data,
        headers: result.headers ?? {},
      });
    },
    onError: async (request) => {
      const { context } = request as unknown as MiddyApiRequest;
      const record = context.api?.idempotency;
      if (!record || record.replay) return;
      const error = toApiError(request.error);
      if (error && !error.transient) {
        const { requestId: _requestId, ...body } = errorBody(error, '');
        await complete(record.scope, record.key, { status: error.status, body, headers: error.headers });
      } else {
        await release(record.scope, record.key);
      }
    },
  };
}

/** The handler's answer for a replayed request: the stored success, or the stored error thrown again. */
export function replayStoredResponse(state: ApiState): HandlerResult {
  const stored = state.idempotency?.replay;
  if (!stored) throw new Error('No stored response to replay');
  const headers = { ...stored.headers, [REPLAYED_HEADER]: 'true' };
  if (stored.status >= 400) {
    const body = stored.body as { error: string; code: ApiError['code']; details?: ApiError['details'] };
    throw new ApiError(body.code, body.error, { ...(body.details ? { details: body.details } : {}), headers });
  }
  return { status: stored.status, data: stored.body, headers };
}
