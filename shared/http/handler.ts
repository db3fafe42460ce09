// apiHandler: a route's business logic as a function's Lambda entry point. The logic runs behind the
// operation runner (operation.ts: the steps every endpoint shares), which the API Gateway adapter
// serves to Lambda; the same operation, as `handler.operation`, serves the in-process adapter of the
// tests and benches (lib/local/in-process.ts).
import type * as z from '../schemas/zod.ts';
import { config } from '../config.ts';
import { lambdaHandler, type ApiLambdaHandler } from './api-gateway.ts';
import type { Caller, HandlerResult, UploadedBody } from './api-state.ts';
import type { MultipartParser } from './multipart.ts';
import { createOperation, type Operation } from './operation.ts';
import type { RouteDefinition } from './route-table.ts';

export type { ApiLambdaHandler } from './api-gateway.ts';

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
  /** Request headers, lowercased names (as API Gateway HTTP APIs deliver them). */
  headers: Readonly<Record<string, string | undefined>>;
  requestId: string;
  /** The request's clock reading: use it for every timestamp the request writes. */
  now: Date;
  sourceIp: string;
}

/** A function's Lambda entry point, carrying the operation it serves. */
export type ApiFunction = ApiLambdaHandler & { readonly operation: Operation };

export function apiHandler<R extends RouteDefinition>(
  route: R,
  implementation: (request: ApiRequest<R>) => Promise<HandlerResult>,
  options: { multipart?: MultipartParser } = {},
): ApiFunction {
  config(); // fail fast at cold start on a misconfigured function
  if (route.uploads?.includes('multipart/form-data') && !options.multipart) {
    throw new Error(`${route.operationId} accepts multipart/form-data: pass { multipart: parseMultipart } to apiHandler`);
  }
  const operation = createOperation(
    route,
    ({ request, state }) =>
      implementation({
        body: state.input.body,
        query: state.input.query,
        params: state.input.params,
        caller: state.caller,
        upload: state.upload,
        headers: request.headers,
        requestId: state.requestId,
        now: state.now,
        sourceIp: state.sourceIp,
      } as ApiRequest<R>),
    options,
  );
  return Object.assign(lambdaHandler(operation), { operation });
}
