// Calling a route function's `handler` export as Lambda would, with the payload 2.0 event API Gateway
// would deliver for the request (lib/local/lambda-events.ts), the JSON body read.
import { invokeRoute, type RouteFunction, type RouteRequest } from '../../lib/local/lambda-events.ts';
import type { RouteDefinition } from '../../shared/http/route-table.ts';

export interface InvokeResult {
  status: number;
  /** Lowercase names. */
  headers: Record<string, string>;
  body: string | Buffer;
  json: any;
}

/** `handler`: a function's `handler` export (apiHandler); `path` may carry a query string. */
export async function invoke(handler: RouteFunction & { readonly route: RouteDefinition }, path: string, options: RouteRequest = {}): Promise<InvokeResult> {
  const response = await invokeRoute(handler, path, options);
  const json = typeof response.body === 'string' && /json/.test(response.headers['content-type'] ?? '') ? JSON.parse(response.body) : undefined;
  return { ...response, json };
}
