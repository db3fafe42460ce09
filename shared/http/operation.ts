// The operation runner: a route's implementation behind the one ordered list of steps every endpoint
// shares, over a plain request and returning a plain response, whatever carried the request (the
// API Gateway adapter in Lambda, api-gateway.ts; the in-process adapter for the tests and benches).
// Order matters: the key is resolved before the rate limiter counts the request, and rejected only
// after it was counted; the Idempotency-Key is claimed last, after validation, and answers a replay
// itself. Every outcome, an error included, becomes the contract's response (response-shaper.ts).
import type { ApiStep, Exchange, HandlerResult, Invocation, OperationRequest, OperationResponse } from './api-state.ts';
import { authenticate } from './middleware/authenticate.ts';
import { authorize } from './middleware/authorize.ts';
import { idempotency } from './middleware/idempotency.ts';
import { parseBody } from './middleware/parse-body.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { newRequestState } from './middleware/request-context.ts';
import { shapeError, shapeResult } from './middleware/response-shaper.ts';
import { validateRequest } from './middleware/validate-request.ts';
import type { MultipartParser } from './multipart.ts';
import { runSteps } from './pipeline.ts';
import type { RouteDefinition } from './route-table.ts';

export interface Operation {
  readonly route: RouteDefinition;
  run(request: OperationRequest, invocation?: Invocation): Promise<OperationResponse>;
}

export function createOperation(
  route: RouteDefinition,
  implementation: (exchange: Exchange) => Promise<HandlerResult>,
  options: { multipart?: MultipartParser } = {},
): Operation {
  const steps: readonly ApiStep[] = [authenticate, rateLimit, authorize, parseBody(options), validateRequest, idempotency];
  return {
    route,
    run: async (request, invocation = {}) => {
      const state = newRequestState(route, request);
      try {
        return shapeResult(state, await runSteps(steps, { request, state, invocation }, implementation));
      } catch (error) {
        return shapeError(state, error);
      }
    },
  };
}
