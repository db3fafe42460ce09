// The one ordered stack of Middy middlewares every API function shares, built from its route row.
// Befores run in this order; afters and onErrors in the reverse order. Order matters: a web page of
// another site is refused before anything looks at its key (routes that check the Origin); the key is
// resolved before the rate limiter counts the request, and rejected only after it was counted; the
// body is read after the caller is known; the Idempotency-Key is claimed last, after validation, and
// answers a replay itself (Middy's early return). Every outcome, an error included, becomes the
// contract's response in the shaper (its after and its one onError mapping), and is then logged (the
// request log's record among it), inside Powertools.
import { powertoolsMiddlewares } from '../powertools.ts';
import type { ApiMiddleware } from './api-state.ts';
import { authenticate } from './middleware/authenticate.ts';
import { authorize } from './middleware/authorize.ts';
import { checkOrigin } from './middleware/check-origin.ts';
import { idempotency } from './middleware/idempotency.ts';
import { jsonBody } from './middleware/json-body.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestBody } from './middleware/request-body.ts';
import { requestContext } from './middleware/request-context.ts';
import { requestLog } from './middleware/request-log.ts';
import { responseShaper } from './middleware/response-shaper.ts';
import { validateRequest } from './middleware/validate-request.ts';
import type { MultipartParser } from './multipart.ts';
import type { RouteDefinition } from './route-table.ts';

export function apiMiddlewares(route: RouteDefinition, options: { multipart?: MultipartParser } = {}): ApiMiddleware[] {
  return [
    ...(powertoolsMiddlewares() as ApiMiddleware[]), // Lambda context in the logs, the trace, the metrics
    requestContext(route), // request id, clock, source address
    requestLog, // the access-log line and the caller's request record, once the response is shaped (its after and onError run last of ours)
    responseShaper, // envelope and error shaping
    checkOrigin, // 403 for a foreign web page (routes with checksOrigin: POST /mcp), before the key
    authenticate, // API-key lookup
    rateLimit, // rate-limit counters
    authorize, // 401, the role guard (and the route's scope, once keys carry scopes)
    requestBody(options), // 413, files
    jsonBody, // @middy/http-json-body-parser
    validateRequest, // zod: params, query, body
    idempotency, // Idempotency-Key: claim, replay (early return), record
  ];
}
