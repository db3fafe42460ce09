// Per-request state that the middlewares build up and the handler reads. It travels on the Lambda
// context object, the one thing middy passes unchanged from the first middleware to the handler.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { ConsumeResult } from '../data/rate-limits.ts';
import type { StoredResponse } from '../data/idempotency-records.ts';
import type { Caller } from '../domain/api-keys.ts';
import type { RouteDefinition } from './route-table.ts';

export type { Caller } from '../domain/api-keys.ts';

export interface ApiState {
  route: RouteDefinition;
  requestId: string;
  /** performance.now() at the start, for the duration in the access log. */
  startedAt: number;
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
  /** `committed`: the handler returned, so its changes are in the table and the claim is never released. */
  idempotency?: { scope: string; key: string; replay?: StoredResponse; committed?: boolean };
}

export type ApiContext = Context & { api: ApiState };

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

export interface MiddyApiRequest {
  event: APIGatewayProxyEventV2;
  context: ApiContext;
  response: unknown;
  error: unknown;
  internal: Record<string, unknown>;
}

/**
 * What a handler returns: the `data` of the envelope, or a `raw` body served as it is (a file download,
 * the OpenAPI document, a web page; bytes, such as a compressed file, go base64-encoded as API Gateway
 * expects); optionally a status and headers.
 */
export type HandlerResult = { status?: number; headers?: Record<string, string> } & (
  | { data: unknown; raw?: undefined }
  | { raw: { body: string | Buffer; contentType: string }; data?: undefined }
);
