// Idempotency-Key on every POST (contract §1), after validation as at Stripe: a request that failed
// validation never ran, so nothing is stored for it. The same key with the same request replays the
// stored response (2xx and 4xx): the middleware answers with it (Middy's early return), and the
// implementation does not run. A different request, or one still running, is 409. 5xx and transient
// refusals (a throttle, a collision with a concurrent write) are not stored: the claim is released.
// Once the implementation has returned, its changes are committed: whatever happens to the recording,
// the client gets the real answer and the claim is never released (docs/decisions/idempotency-after-commit.md).
import { createHash } from 'node:crypto';
import { claim, complete, recordCommittedOutcome, release, type StoredResponse } from '../../data/idempotency-records.ts';
import { ApiError, errors, toApiError } from '../errors.ts';
import { isValidIdempotencyKey } from '../idempotency-key.ts';
import { answerEarly } from '../../powertools.ts';
import type { ApiMiddleware, ApiState, HandlerResult } from '../api-state.ts';
import { logger } from '../../logger.ts';
import { logRequest } from './request-log.ts';
import { errorBody, shapeResult } from './response-shaper.ts';

/** Time kept back from the recording's retries for the rest of the response, before Lambda's own limit. */
const RESPONSE_RESERVE_MS = 1_000;
/** The recording's retries never hold a response longer than this. */
const RECORDING_BUDGET_MS = 3_000;

export const REPLAYED_HEADER = 'Idempotent-Replayed';

function fingerprint(state: ApiState, path: string): string {
  return createHash('sha256')
    .update(`${state.route.method} ${path}\n${JSON.stringify(state.parsedBody ?? null)}\n`)
    .update(state.upload && state.upload.mediaType !== 'application/json' ? state.upload.bytes : Buffer.alloc(0))
    .digest('hex');
}

/** The stored answer, with Idempotent-Replayed: a success is returned, an error thrown again. */
function replay(stored: StoredResponse): HandlerResult {
  const headers = { ...stored.headers, [REPLAYED_HEADER]: 'true' };
  if (stored.status >= 400) {
    const body = stored.body as { error: string; code: ApiError['code']; details?: ApiError['details'] };
    throw new ApiError(body.code, body.error, { ...(body.details ? { details: body.details } : {}), headers });
  }
  return { status: stored.status, data: stored.body, headers };
}

export const idempotency: ApiMiddleware = {
  name: 'idempotency',
  before: async (request) => {
    const { event, context: { api: state } } = request;
    if (state.route.method !== 'POST') return;
    const key = event.headers?.['idempotency-key'];
    if (key === undefined) return;
    // A dry run writes nothing, so it keeps no record either: the real request may use the same key.
    if ((state.input.body as { dryRun?: unknown } | undefined)?.dryRun === true) return;
    if (!isValidIdempotencyKey(key)) {
      throw errors.invalid('Idempotency-Key must be 1 to 255 printable ASCII characters, without a space at either end', [
        { path: 'Idempotency-Key', message: 'Must be 1 to 255 printable ASCII characters, without a space at either end' },
      ]);
    }
    // Keys are per caller; registrations (no caller yet) are scoped by source address as well.
    const scope = state.caller ? state.caller.agentId : `public#${state.sourceIp}`;
    const outcome = await claim(scope, key, fingerprint(state, event.rawPath), state.now);
    switch (outcome.outcome) {
      case 'claimed':
        state.idempotency = { scope, key };
        return;
      case 'replay': {
        // An early answer skips the later middlewares and every `after`: it is shaped and logged here,
        // as the shaper and the request log would (a stored error is thrown again, and shaped by the onErrors).
        state.replayed = true;
        const answer = shapeResult(state, replay(outcome.response));
        logRequest(state, event, answer);
        return answerEarly(request, answer);
      }
      case 'mismatch':
        throw errors.idempotencyConflict(
          'This Idempotency-Key was already used with a different request; send a new key for a new request',
        );
      case 'in-progress':
        throw errors.idempotencyConflict(
          'A request with this Idempotency-Key is still being processed; retry once it has finished',
        );
      case 'unrecorded':
        throw errors.idempotencyConflict(
          'A request with this Idempotency-Key already ran, but its response could not be stored; it will not run again. Read the resource to see its outcome, and send a new key for a new request',
        );
    }
  },
  after: async (request) => {
    const { context } = request;
    const state = context.api;
    const record = state.idempotency;
    if (!record) return;
    const result = request.response as HandlerResult;
    // The implementation returned: its changes are committed. From here on the claim is never released.
    record.committed = true;
    const response = result.raw
      ? undefined // a raw body is not stored: the claim is only marked committed
      : { status: result.status ?? state.route.response.status, body: result.data, headers: result.headers ?? {} };
    const remaining = context.getRemainingTimeInMillis?.() ?? RECORDING_BUDGET_MS + RESPONSE_RESERVE_MS;
    const deadline = Date.now() + Math.min(RECORDING_BUDGET_MS, remaining - RESPONSE_RESERVE_MS);
    const outcome = await recordCommittedOutcome(record.scope, record.key, response, deadline);
    // A raw body (the MCP endpoint's JSON-RPC answer) is never stored by design: marking it is all there is.
    if (outcome !== 'completed' && !(response === undefined && outcome === 'committed')) {
      // The client still gets the real answer; a retry with the key gets 409 instead of a replay.
      logger.error('Idempotency-Key outcome not stored after the request committed', {
        requestId: state.requestId,
        agentId: state.caller?.agentId,
        route: `${state.route.method} ${state.route.path}`,
        claim: outcome === 'committed' ? 'marked committed' : 'left to its lease',
      });
    }
  },
  onError: async ({ error: thrown, context }) => {
    const state = context.api as ApiState | undefined;
    const record = state?.idempotency;
    // After a commit (a later middleware failed) its after has already recorded what it could.
    if (!state || !record || record.committed) return;
    // Nothing was committed (every change is one transaction). Never throw from here: the response
    // must still be answered in the contract's shape.
    const error = toApiError(thrown);
    try {
      if (error && !error.transient) {
        const { requestId: _requestId, ...body } = errorBody(error, '');
        await complete(record.scope, record.key, { status: error.status, body, headers: error.headers });
        return;
      }
    } catch {
      // The 4xx could not be stored: release instead, so that a retry runs (and fails) again.
    }
    try {
      await release(record.scope, record.key);
    } catch (releaseError) {
      // The claim stays until its lease ends; a retry is then taken over and runs again.
      logger.warn('Idempotency-Key claim not released after a failed request', { requestId: state.requestId, error: releaseError as Error });
    }
  },
};
