// apiHandler: a route's business logic as its function's Lambda entry point, a Middy handler behind
// the one stack of middlewares every endpoint shares (api-middlewares.ts). What the deployed function
// runs is what the local gateway, the tests and the benches call: this export, with API Gateway's
// payload 2.0 events (lib/local/lambda-events.ts builds them).
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from '../schemas/zod.ts';
import { config } from '../config.ts';
import { MIDDY_OPTIONS } from '../powertools.ts';
import { apiMiddlewares } from './api-middlewares.ts';
import type { ApiContext, Caller, HandlerResult, UploadedBody } from './api-state.ts';
import type { MultipartParser } from './multipart.ts';
import type { RouteDefinition } from './route-table.ts';

type Parsed<R extends RouteDefinition, Part extends 'body' | 'query' | 'params'> = R['request'] extends {
  [P in Part]: infer S extends z.ZodMiniType;
}
  ? z.output<S>
  : undefined;

export interface ApiRequest<R extends RouteDefinition> {
  body: Parsed<R, 'body'>;
  query: Parsed<R, 'query'>;
  params: Parsed<R, 'params'>;
  /** The authenticated agent; always present on `apiKey` routes. */
  caller: R['auth'] extends 'apiKey' ? Caller : Caller | undefined;
  /** Routes with `uploads`: the file, or a JSON body's bytes. */
  upload: UploadedBody | undefined;
  /** Request headers, lowercased names (as API Gateway HTTP APIs deliver them), cookies in one Cookie header. */
  headers: Readonly<Record<string, string | undefined>>;
  requestId: string;
  /** The method and the path (percent-encoded, as sent) the request came with. */
  method: string;
  path: string;
  /** The request's clock reading: use it for every timestamp the request writes. */
  now: Date;
  sourceIp: string;
}

/** A function's Lambda entry point (API Gateway HTTP API, payload 2.0), carrying the route it serves. */
export type ApiFunction = ((event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>) & {
  readonly route: RouteDefinition;
};

export function apiHandler<R extends RouteDefinition>(
  route: R,
  implementation: (request: ApiRequest<R>) => Promise<HandlerResult>,
  options: { multipart?: MultipartParser } = {},
): ApiFunction {
  config(); // fail fast at cold start on a misconfigured function
  if (route.uploads?.includes('multipart/form-data') && !options.multipart) {
    throw new Error(`${route.operationId} accepts multipart/form-data: pass { multipart: parseMultipart } to apiHandler`);
  }
  // The Middy handler proper: the implementation, handed what the middlewares read from the event.
  const run = (_event: APIGatewayProxyEventV2, { api: state }: ApiContext): Promise<HandlerResult> =>
    implementation({
      body: state.input.body,
      query: state.input.query,
      params: state.input.params,
      caller: state.caller,
      upload: state.upload,
      headers: state.headers,
      requestId: state.requestId,
      method: state.method,
      path: state.path,
      now: state.now,
      sourceIp: state.sourceIp,
    } as ApiRequest<R>);
  const handler = middy<APIGatewayProxyEventV2, HandlerResult | APIGatewayProxyStructuredResultV2, Error, ApiContext>(run, MIDDY_OPTIONS).use(apiMiddlewares(route, options));
  return Object.assign(handler as unknown as ApiFunction, { route });
}
