// The runner's last stage: turns every outcome into the contract's shape. Success → `{data, meta}`
// (or a raw body for raw results); failure → `{error, code, status, requestId, details?}` via the one
// mapping in errors.ts. Adds X-Request-Id and the rate-limit headers to both, and writes one access-log line.
import { errors, toApiError, type ApiError } from '../errors.ts';
import type { ApiState, HandlerResult, OperationResponse } from '../api-state.ts';
import { logger } from '../logger.ts';
import { rateLimitHeaders } from '../rate-limit-headers.ts';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function commonHeaders(state: ApiState, contentType = JSON_CONTENT_TYPE): Record<string, string> {
  return { 'Content-Type': contentType, 'X-Request-Id': state.requestId, ...rateLimitHeaders(state) };
}

function accessLog(state: ApiState, status: number): void {
  logger.info('request', {
    requestId: state.requestId,
    agentId: state.caller?.agentId,
    keyId: state.caller?.keyId,
    route: `${state.route.method} ${state.route.path}`,
    status,
    durationMs: Math.round((performance.now() - state.startedAt) * 100) / 100,
    replayed: state.replayed ? true : undefined,
  });
}

export function errorBody(error: ApiError, requestId: string) {
  return {
    error: error.message,
    code: error.code,
    status: error.status,
    requestId,
    ...(error.details ? { details: error.details } : {}),
  };
}

export function shapeResult(state: ApiState, result: HandlerResult): OperationResponse {
  const status = result.status ?? state.route.response.status;
  const response: OperationResponse = result.raw
    ? { status, headers: { ...commonHeaders(state, result.raw.contentType), ...result.headers }, body: result.raw.body }
    : {
        status,
        headers: { ...commonHeaders(state), ...result.headers },
        body: JSON.stringify({ data: result.data, meta: { requestId: state.requestId, timestamp: state.now.toISOString() } }),
      };
  accessLog(state, status);
  return response;
}

export function shapeError(state: ApiState, thrown: unknown): OperationResponse {
  let apiError = toApiError(thrown);
  if (!apiError) {
    logger.error('unhandled error', { requestId: state.requestId, error: thrown as Error });
    apiError = errors.internal();
  }
  const response: OperationResponse = {
    status: apiError.status,
    headers: { ...commonHeaders(state), ...apiError.headers },
    body: JSON.stringify(errorBody(apiError, state.requestId)),
  };
  accessLog(state, apiError.status);
  return response;
}
