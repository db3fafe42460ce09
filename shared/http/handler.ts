// apiHandler wraps a route's business logic in the one middleware stack every endpoint shares.
// Order matters: the response shaper is outermost (its after/onError run last); the key is resolved
// before the rate limiter counts the request, and rejected only after it was counted.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { config } from '../config.ts';
import type { ApiContext, Caller, HandlerResult, UploadedBody } from './api-state.ts';
import { authenticate } from './middleware/authenticate.ts';
import { authorize } from './middleware/authorize.ts';
import { idempotency, replayStoredResponse } from './middleware/idempotency.ts';
import type { MultipartParser } from './multipart.ts';
import { parseBody } from './middleware/parse-body.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestContext } from './middleware/request-context.ts';
import { responseShaper } from './middleware/response-shaper.ts';
import { validateRequest } from './middleware/validate-request.ts';
import type { RouteDefinition } from './route-table.ts';

type Parsed<R extends RouteDefinition, Part extends 'body' | 'query' | 'params'> = R['request'] extends {
  [P in Part]: infer S extends z.ZodType;
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

export type ApiLambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

export function apiHandler<R extends RouteDefinition>(
  route: R,
  implementation: (request: ApiRequest<R>) => Promise<HandlerResult>,
  options: { multipart?: MultipartParser } = {},
): ApiLambdaHandler {
  config(); // fail fast at cold start on a misconfigured function
  if (route.uploads?.includes('multipart/form-data') && !options.multipart) {
    throw new Error(`${route.operationId} accepts multipart/form-data: pass { multipart: parseMultipart } to apiHandler`);
  }

  const core = async (event: APIGatewayProxyEventV2, context: ApiContext): Promise<HandlerResult> => {
    const state = context.api;
    if (state.idempotency?.replay) return replayStoredResponse(state);
    return implementation({
      body: state.input.body,
      query: state.input.query,
      params: state.input.params,
      caller: state.caller,
      upload: state.upload,
      headers: event.headers ?? {},
      requestId: state.requestId,
      now: state.now,
      sourceIp: state.sourceIp,
    } as ApiRequest<R>);
  };

  const stack = middy(core).use([
    responseShaper(),
    requestContext(route),
    authenticate(),
    rateLimit(),
    authorize(),
    parseBody({ multipart: options.multipart }),
    validateRequest(),
    idempotency(),
  ]);
  return stack as unknown as ApiLambdaHandler;
}
