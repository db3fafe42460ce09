// What the operation runner (operation.ts) and its steps (middleware/*.ts) share: the plain request
// every transport hands in, the plain response it gets back, and the per-request state the steps
// build up and the operation reads. Nothing here knows API Gateway or Lambda (api-gateway.ts does).
import type { ConsumeResult } from '../data/rate-limits.ts';
import type { Caller } from '../domain/api-keys.ts';
import type { Step } from './pipeline.ts';
import type { RouteDefinition } from './route-table.ts';

export type { Caller } from '../domain/api-keys.ts';

/** An HTTP request as any transport delivers it. */
export interface OperationRequest {
  method: string;
  /** The path as sent (still percent-encoded), without the query string. */
  path: string;
  /** Lowercase names; a repeated header's values joined with commas (as API Gateway delivers them). */
  headers: Readonly<Record<string, string | undefined>>;
  /** Path parameters of the route's template, decoded. */
  params: Readonly<Record<string, string | undefined>>;
  /** Query parameters, decoded; a repeated key's values joined with commas (as API Gateway delivers them). */
  query: Readonly<Record<string, string | undefined>>;
  /** The query string as sent: bytes that are not UTF-8 are only visible here, once decoded they are U+FFFD. */
  rawQuery: string;
  /** The body's bytes; undefined when there is none. */
  body: Buffer | undefined;
  sourceIp: string;
}

/** The answer, for the transport to write. A Buffer body is binary. */
export interface OperationResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** What the platform running the request tells the steps. */
export interface Invocation {
  /** Milliseconds left before the platform cuts the request off (Lambda's remaining time). */
  remainingMs?: () => number;
}

export interface ApiState {
  route: RouteDefinition;
  requestId: string;
  /** performance.now() at the start, for the duration in the access log. */
  startedAt: number;
  /** The request's clock reading. */
  now: Date;
  sourceIp: string;
  caller?: Caller;
  authProblem?: 'missing' | 'invalid';
  rateLimit?: ConsumeResult | 'unlimited';
  /** The body after JSON parsing, before validation. */
  parsedBody?: unknown;
  /** On routes that take uploads: the file (or the JSON body's bytes). */
  upload?: UploadedBody;
  input: { body: unknown; query: unknown; params: unknown };
  /** A claimed Idempotency-Key. `committed`: the operation returned, so its changes are in the table and the claim is never released. */
  idempotency?: { scope: string; key: string; committed?: boolean };
  /** The answer is a stored one, replayed for an Idempotency-Key. */
  replayed?: boolean;
}

/** What each step sees. */
export interface Exchange {
  readonly request: OperationRequest;
  readonly state: ApiState;
  readonly invocation: Invocation;
}

export type ApiStep = Step<Exchange, HandlerResult>;

/** A request body taken as bytes: a CSV body, a multipart `file` part, or a JSON body on an upload route. */
export interface UploadedBody {
  mediaType: 'text/csv' | 'application/json' | 'multipart/form-data';
  bytes: Buffer;
  /** The multipart part's filename as the multipart parser read it (its bytes as Latin-1 characters, or a decoded filename*). */
  filename: string | null;
  /** The Content-Disposition header of a plain body, as sent: the routes that take files read a name from it. */
  contentDisposition: string | null;
  /** The multipart part's own content type. */
  partType: string | null;
  /** Other multipart fields (name → value). */
  fields: Record<string, string>;
}

/**
 * What an operation returns: the `data` of the envelope, or a `raw` body served as it is (a file
 * download, the OpenAPI document, a web page; bytes, such as a compressed file, are binary);
 * optionally a status and headers.
 */
export type HandlerResult = { status?: number; headers?: Record<string, string> } & (
  | { data: unknown; raw?: undefined }
  | { raw: { body: string | Buffer; contentType: string }; data?: undefined }
);
