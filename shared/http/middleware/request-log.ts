// The access log and the request log, from the response as it was shaped: the one `request` line per
// request (ids, route, status, duration) and, when the caller is known, its `requestLog` record — what
// the caller sees in GET /v1/requests (contract §5.4). Writing the line is all this does on the
// request's path: on AWS a subscription filter on each API function's log group hands the lines to
// the request-log writer (functions/requests/record.worker.ts), which stores them in batches; the
// local runtime hands them to the same writer itself (lib/local/log-subscriptions.ts). No DynamoDB
// round trip is added to any response (docs/decisions/request-log-write-path.md). Never a body of a
// success, a header, a key or a secret: the record holds the error body only, which the caller was
// sent anyway.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { logger } from '../../logger.ts';
import type { RequestLogLine } from '../../schemas/requests.ts';
import type { ApiMiddleware, ApiState } from '../api-state.ts';
import { isValidIdempotencyKey } from '../idempotency-key.ts';

type LoggedMethod = RequestLogLine['method'];
const LOGGED_METHODS: ReadonlySet<string> = new Set<LoggedMethod>(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS']);

/** Who else hears of each request record besides the log: the local runtime's emulated subscription. */
type Listener = (line: RequestLogLine) => void;
const listeners = new Set<Listener>();

/**
 * Hears every request record this process logs, whatever the log level: the local runtime's stand-in
 * for CloudWatch Logs' subscription filter. Returns how to stop.
 */
export function onRequestLogged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The error body of an error response, as the caller received it. */
function errorOf(response: APIGatewayProxyStructuredResultV2): RequestLogLine['error'] {
  if ((response.statusCode ?? 200) < 400 || typeof response.body !== 'string' || response.isBase64Encoded) return undefined;
  try {
    const body = JSON.parse(response.body) as Record<string, unknown>;
    if (typeof body.error !== 'string' || typeof body.code !== 'string') return undefined;
    const details = Array.isArray(body.details) ? (body.details as { path: unknown; message: unknown }[]).map(({ path, message }) => ({ path: String(path), message: String(message) })) : undefined;
    return { error: body.error, code: body.code, status: Number(body.status), requestId: String(body.requestId), ...(details ? { details } : {}) };
  } catch {
    return undefined;
  }
}

/** The record of a request whose caller is known; undefined for anonymous requests and routes kept out of the log. */
export function requestRecord(state: ApiState, event: APIGatewayProxyEventV2, response: APIGatewayProxyStructuredResultV2, durationMs: number): RequestLogLine | undefined {
  const caller = state.caller;
  const method = event.requestContext?.http?.method ?? state.route.method;
  if (!caller || state.route.unlogged || !LOGGED_METHODS.has(method)) return undefined;
  const status = response.statusCode ?? 200;
  const error = errorOf(response);
  const header = event.headers?.['idempotency-key'];
  return {
    agentId: caller.agentId,
    requestId: state.requestId,
    at: state.now.toISOString(),
    method: method as LoggedMethod,
    path: (event.rawPath ?? state.route.path).slice(0, 2048),
    status,
    code: error?.code ?? null,
    durationMs,
    keyId: caller.keyId,
    idempotencyKey: header !== undefined && isValidIdempotencyKey(header) ? header : null,
    idempotentReplayed: state.replayed === true,
    ...(error ? { error } : {}),
  };
}

/** Writes the request's line (and hands its record to any listener). Never throws: the response stands. */
export function logRequest(state: ApiState, event: APIGatewayProxyEventV2, response: APIGatewayProxyStructuredResultV2): void {
  try {
    const durationMs = Math.round((performance.now() - state.startedAt) * 100) / 100;
    const record = requestRecord(state, event, response, durationMs);
    logger.info('request', {
      requestId: state.requestId,
      agentId: state.caller?.agentId,
      keyId: state.caller?.keyId,
      route: `${state.route.method} ${state.route.path}`,
      status: response.statusCode,
      durationMs,
      replayed: state.replayed ? true : undefined,
      requestLog: record,
    });
    if (record) for (const listener of listeners) listener(record);
  } catch (error) {
    logger.warn('request not logged', { requestId: state.requestId, error: error as Error });
  }
}

/** Outside the response shaper: its after and onError run once the response is shaped. */
export const requestLog: ApiMiddleware = {
  name: 'requestLog',
  after: ({ event, response, context }) => {
    if (context.api) logRequest(context.api, event, response as APIGatewayProxyStructuredResultV2);
  },
  onError: ({ event, response, context }) => {
    if (context.api && response) logRequest(context.api, event, response);
  },
};
