// Outermost middleware: turns every outcome into the contract's shape. Success → `{data, meta}`
// (or a raw body for raw results); failure → `{error, code, status, requestId, details?}` via the one
// mapping in errors.ts. Adds X-Request-Id and the rate-limit headers to both, and writes one access-log line.
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { errors, toApiError, type ApiError } from '../errors.ts';
import type { ApiState, HandlerResult, MiddyApiRequest } from '../api-state.ts';
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
    route: `${state.route.method} ${state.route.path}`,
    status,
    durationMs: Math.round((performance.now() - state.startedAt) * 100) / 100,
    replayed: state.idempotency?.replay ? true : undefined,
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

export function responseShaper(): MiddlewareObj {
  return {
    after: (request) => {
      const { context } = request as unknown as MiddyApiRequest;
      const state = context.api;
      const result = request.response as HandlerResult;
      const status = result.status ?? state.route.response.status;
      const response: APIGatewayProxyStructuredResultV2 = result.raw
        ? {
            statusCode: status,
            headers: { ...commonHeaders(state, result.raw.contentType), ...result.headers },
            ...(typeof result.raw.body === 'string' ? { body: result.raw.body } : { body: result.raw.body.toString('base64'), isBase64Encoded: true }),
          }
        : {
            statusCode: status,
            headers: { ...commonHeaders(state), ...result.headers },
            body: JSON.stringify({ data: result.data, meta: { requestId: state.requestId, timestamp: state.now.toISOString() } }),
          };
      request.response = response;
      accessLog(state, status);
    },
    onError: (request) => {
      const { context } = request as unknown as MiddyApiRequest;
      const state = context.api as ApiState | undefined;
      let apiError = toApiError(request.error);
      if (!apiError) {
        logger.error('unhandled error', { requestId: state?.requestId, error: request.error as Error });
        apiError = errors.internal();
      }
      const requestId = state?.requestId ?? 'req_unknown';
      request.response = {
        statusCode: apiError.status,
        headers: { ...(state ? commonHeaders(state) : { 'Content-Type': JSON_CONTENT_TYPE }), ...apiError.headers },
        body: JSON.stringify(errorBody(apiError, requestId)),
      } satisfies APIGatewayProxyStructuredResultV2;
      if (state) accessLog(state, apiError.status);
    },
  };
}
