// The request log (contract §5.4): each of an agent's API requests of the last 7 days, as the API
// answered it: method, path, status, error code, duration, the key that sent it and its
// Idempotency-Key. Never a request or response body of a success, never a header, key or secret; an
// error's body (what the caller was told) is kept for GET /v1/requests/{requestId}. The same record is
// the `requestLog` field of the access-log line every API function writes (RequestLogLine), which the
// request-log writer turns into items (docs/decisions/request-log-write-path.md).
import * as z from './zod.ts';
import { idPattern } from '../ids.ts';
import { PaginationQuery, TEXT_PATTERN_SINGLE_LINE, Timestamp, bounded, boundedInt, idOf, idParam, unlessMissing } from './common.ts';

/** How long a request stays in its agent's log. */
export const REQUEST_LOG_RETENTION_DAYS = 7;

const HTTP_METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'] as const;

const line = (maxLength: number) => bounded(maxLength, { pattern: TEXT_PATTERN_SINGLE_LINE });
const ErrorCode = bounded(64, { pattern: '^[a-z-]+(/[a-z-]+)?$' });

/** The error body an error response carried, as the caller received it (the contract's error shape). */
const LoggedError = z.object({
  error: line(4000),
  code: ErrorCode,
  status: boundedInt(400, 599),
  requestId: idOf('request'),
  details: z.optional(z.annotated(z.array(z.object({ path: line(512), message: line(2000) })), { maxItems: 200 })),
});

const requestFields = {
  requestId: idOf('request'),
  at: z.withMeta(Timestamp, { description: 'When the request arrived' }),
  method: z.enum(HTTP_METHODS),
  path: bounded(2048, { pattern: '^/', description: 'Without the query string' }),
  status: boundedInt(100, 599),
  code: z.annotated(z.nullable(ErrorCode), { description: 'Null for a success' }),
  durationMs: z.number(),
  keyId: idOf('key'),
  idempotencyKey: z.nullable(bounded(255, { pattern: '^[\\x20-\\x7E]+$' })),
  idempotentReplayed: z.boolean(),
};

/** One request as the log lists it. */
export const LoggedRequest = z.annotated(z.object(requestFields), { id: 'LoggedRequest', description: 'One of the caller’s API requests' });
export type LoggedRequest = z.output<typeof LoggedRequest>;

/** One request with the error body of an error response (null for a success: success bodies are never kept). */
export const LoggedRequestDetail = z.annotated(z.extend(LoggedRequest, { error: z.annotated(z.nullable(LoggedError), { description: 'The error body; null for a success' }) }), {
  id: 'LoggedRequestDetail',
});
export type LoggedRequestDetail = z.output<typeof LoggedRequestDetail>;

/**
 * The `requestLog` field of the access-log line of a request whose caller is known: what the
 * request-log writer stores for `agentId`. Parsed strictly by the writer, since it arrives from logs.
 */
export const RequestLogLine = z.object({
  agentId: z.string().check(z.regex(idPattern('agent'))),
  ...requestFields,
  requestId: z.string().check(z.regex(idPattern('request'))),
  at: z.string(),
  keyId: z.string(),
  idempotencyKey: z.nullable(z.string()),
  error: z.optional(LoggedError),
});
export type RequestLogLine = z.output<typeof RequestLogLine>;

const STATUS_MESSAGE = 'Must be a status class (2xx, 4xx, 5xx) or a status code such as 422';

/** `?status=`: a class (`2xx`, `3xx`, `4xx`, `5xx`) or an exact status code, as the range of statuses it selects. */
const StatusFilter = z.annotated(
  z.pipe(
  z.string({ error: unlessMissing(STATUS_MESSAGE) }).check(z.regex(/^(?:[1-5]xx|[1-5][0-9]{2})$/i, STATUS_MESSAGE)),
  z.transform((text) => {
    const lower = text.toLowerCase();
    if (lower.endsWith('xx')) {
      const base = Number(lower[0]) * 100;
      return { from: base, to: base + 99 };
    }
    return { from: Number(text), to: Number(text) };
}),
  ),
  { description: 'Only responses of this status class (`2xx`, `4xx`, `5xx`) or exact status (`422`)', type: 'string', maxLength: 3, pattern: '^([1-5]xx|[1-5][0-9]{2})$', example: '4xx' },
);

export const ListRequestsQuery = z.extend(PaginationQuery, {
  status: z.optional(StatusFilter),
  path: z.annotated(
  z.optional(z.annotated(z.string({ error: unlessMissing('Must be a path prefix starting with /') }).check(z.regex(/^\/[\x21-\x7E]{0,511}$/, 'Must be a path prefix starting with / (at most 512 printable characters, no spaces)')), { maxLength: 512, pattern: '^/[\\x21-\\x7E]*$' })),
  { description: 'Only paths starting with this', example: '/v1/orders' },
  ),
});

export const RequestIdParams = z.strictObject({ requestId: idParam(idPattern('request'), 'a request id (req_…, the X-Request-Id of a response)', 'req_01M83TVX0AKEXE2W9X4JQ3R8ZD') });

/** A logged request, for the API document's examples. */
export const EXAMPLE_LOGGED_REQUEST = {
  requestId: 'req_01M83TVX0AKEXE2W9X4JQ3R8ZD',
  at: '2026-11-23T10:04:12.345Z',
  method: 'POST',
  path: '/v1/create-order',
  status: 409,
  code: 'conflict',
  durationMs: 41.7,
  keyId: 'key_01M83T0W7AE2C9H4XK1VB6ZQ3N',
  idempotencyKey: 'order-neg_01M83TN7Q0W3YDXR5B8V6K2HZA',
  idempotentReplayed: false,
} as const;
