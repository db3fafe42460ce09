// What the API's Middy middlewares (middleware/*.ts, in the order of api-middlewares.ts) and the
// route's implementation share: the per-request state the middlewares build up on the Lambda context
// (`context.api`, Middy's way of handing values to the handler), and what the implementation returns.
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ConsumeResult } from '../data/rate-limits.ts';
import type { Caller } from '../domain/api-keys.ts';
import type { RouteDefinition } from './route-table.ts';

export type { Caller } from '../domain/api-keys.ts';

export interface ApiState {
  route: RouteDefinition;
  requestId: string;
  /** performance.now() at the start, for the duration in the access log. */
  startedAt: number;
  /** The request's clock reading. */
  now: Date;
  sourceIp: string;
  /** The request's method and path as API Gateway received them (the path still percent-encoded). */
  method: string;
  path: string;
  /** The request's headers as the client sent them: lowercase names, its cookies back in one Cookie header. */
  headers: Readonly<Record<string, string | undefined>>;
  caller?: Caller;
  authProblem?: 'missing' | 'invalid';
  rateLimit?: ConsumeResult | 'unlimited';
  /** A body was sent that is to be parsed as JSON (request-body.ts → json-body.ts). */
  jsonBody?: boolean;
  /** The body after JSON parsing, before validation. */
  parsedBody?: unknown;
  /** On routes that take uploads: the file (or the JSON body's bytes). */
  upload?: UploadedBody;
  input: { body: unknown; query: unknown; params: unknown };
  /** A claimed Idempotency-Key. `committed`: the implementation returned, so its changes are in the table and the claim is never released. */
  idempotency?: { scope: string; key: string; committed?: boolean };
  /** The answer is a stored one, replayed for an Idempotency-Key. */
  replayed?: boolean;
}

export type ApiContext = Context & { api: ApiState };

/** What every API middleware sees: API Gateway's payload 2.0 event, and the implementation's result until the shaper makes it API Gateway's. */
export type ApiRequest = Request<APIGatewayProxyEventV2, HandlerResult | APIGatewayProxyStructuredResultV2, Error, ApiContext>;
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEventV2, HandlerResult | APIGatewayProxyStructuredResultV2, Error, ApiContext>;

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
 * What a route's implementation returns: the `data` of the envelope, or a `raw` body served as it is
 * (a file download, the OpenAPI document, a web page; bytes, such as a compressed file, are binary and
 * go back base64-encoded); optionally a status and headers.
 */
export type HandlerResult = { status?: number; headers?: Record<string, string> } & (
  | { data: unknown; raw?: undefined }
  | { raw: { body: string | Buffer; contentType: string }; data?: undefined }
);
