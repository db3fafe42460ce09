// The in-process adapter: calling an operation in this process, as the tests and benches do. The
// request is the runner's plain request, built as API Gateway would deliver it (lowercase header
// names, path parameters matched from the route's template and decoded, the query decoded with a
// repeated key's values joined by commas); no Lambda event or context in between. The local gateway
// instead speaks API Gateway's payload 2.0 to each function's Lambda entry point, as in AWS
// (docs/decisions.md, "One request pipeline").
import type { OperationRequest, OperationResponse } from '../../shared/http/api-state.ts';
import type { Operation } from '../../shared/http/operation.ts';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { queryParameters } from './http-event.ts';
import { RouteMatcher } from './route-matcher.ts';

export interface InProcessRequest {
  /** Names in any case; they are lowercased. */
  headers?: Record<string, string>;
  /** A string or bytes as they are; anything else as JSON. Content-Type defaults to application/json. */
  body?: unknown;
  /** Sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  sourceIp?: string;
}

/** A documentation address (RFC 5737), unless the request names one. */
const DEFAULT_SOURCE_IP = '198.51.100.7';
/** What the operation is told of its remaining time: a function's default limit. */
const REMAINING_MS = 10_000;

/** An operation, or a function's `handler` export, which carries its operation. */
export type OperationTarget = Operation | { readonly operation: Operation };

export function operationOf(target: OperationTarget): Operation {
  return 'run' in target ? target : target.operation;
}

/** `target`: the path, with its query string if any (`/v1/orders?limit=5`); the method is the route's. */
export function operationRequest(route: RouteDefinition, target: string, options: InProcessRequest = {}): OperationRequest {
  const queryStart = target.indexOf('?');
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : target.slice(queryStart + 1);
  const match = new RouteMatcher([route], route).match(route.method, path);
  if (match.routeKey === '$default') throw new Error(`${path} is not a path of ${route.method} ${route.path}`);

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  let body: Buffer | undefined;
  if (options.body !== undefined) {
    const { body: sent } = options;
    body = Buffer.isBuffer(sent) ? sent : Buffer.from(typeof sent === 'string' ? sent : JSON.stringify(sent), 'utf8');
    headers['content-type'] ??= 'application/json';
  }
  return {
    method: route.method,
    path,
    headers,
    params: match.pathParameters ?? {},
    query: queryParameters(rawQuery) ?? {},
    rawQuery,
    body,
    sourceIp: options.sourceIp ?? DEFAULT_SOURCE_IP,
  };
}

/** The operation's answer, header names lowercased as an HTTP client reads them. */
export async function invokeInProcess(target: OperationTarget, path: string, options: InProcessRequest = {}): Promise<OperationResponse> {
  const operation = operationOf(target);
  const response = await operation.run(operationRequest(operation.route, path, options), { remainingMs: () => REMAINING_MS });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = value;
  return { ...response, headers };
}
