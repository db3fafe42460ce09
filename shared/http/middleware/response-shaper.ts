// The API's envelope and error shaping, outermost of its middlewares: its `after` turns the
// implementation's result into API Gateway's structured result, `{data, meta}` (or a raw body, base64
// for bytes); its `onError` is the one mapping of every failure to the contract's error,
// `{error, code, status, requestId, details?}` (toApiError, errors.ts; anything unexpected is logged
// and answered 500 internal). Both add X-Request-Id and the rate-limit headers; the access log line is
// written once the response is shaped (request-log.ts). The onError sets the response without
// returning it, so that the Powertools middlewares around it still see the invocation end.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { errors, toApiError, type ApiError } from '../errors.ts';
import type { ApiMiddleware, ApiState, HandlerResult } from '../api-state.ts';
import { logger } from '../../logger.ts';
import { rateLimitHeaders } from '../rate-limit-headers.ts';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function commonHeaders(state: ApiState, contentType = JSON_CONTENT_TYPE): Record<string, string> {
  return { 'Content-Type': contentType, 'X-Request-Id': state.requestId, ...rateLimitHeaders(state) };
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

/** The implementation's result as API Gateway's structured result. */
export function shapeResult(state: ApiState, result: HandlerResult): APIGatewayProxyStructuredResultV2 {
  const statusCode = result.status ?? state.route.response.status;
  let response: APIGatewayProxyStructuredResultV2;
  if (result.raw) {
    const { body, contentType } = result.raw;
    const headers = { ...commonHeaders(state, contentType), ...result.headers };
    response = typeof body === 'string' ? { statusCode, headers, body } : { statusCode, headers, body: body.toString('base64'), isBase64Encoded: true };
  } else {
    response = {
      statusCode,
      headers: { ...commonHeaders(state), ...result.headers },
      body: JSON.stringify({ data: result.data, meta: { requestId: state.requestId, timestamp: state.now.toISOString() } }),
    };
  }
  return response;
}

/** Anything thrown as the contract's error response. `state` is missing only if the request context itself failed. */
export function shapeError(state: ApiState | undefined, thrown: unknown): APIGatewayProxyStructuredResultV2 {
  let apiError = toApiError(thrown);
  if (!apiError) {
    logger.error('unhandled error', { requestId: state?.requestId, error: thrown as Error });
    apiError = errors.internal();
  }
  const requestId = state?.requestId ?? 'req_unknown';
  const response = {
    statusCode: apiError.status,
    headers: { ...(state ? commonHeaders(state) : { 'Content-Type': JSON_CONTENT_TYPE }), ...apiError.headers },
    body: JSON.stringify(errorBody(apiError, requestId)),
  };
  return response;
}

export const responseShaper: ApiMiddleware = {
  name: 'responseShaper',
  after: (request) => {
    request.response = shapeResult(request.context.api, request.response as HandlerResult);
  },
  onError: (request) => {
    request.response = shapeError(request.context.api, request.error);
  },
};
