// Per-request state that the middlewares build up and the handler reads. It travels on the Lambda
// context object, the one thing middy passes unchanged from the first middleware to the handler.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { ConsumeResult } from '../data/rate-limits.ts';
import type { StoredResponse } from '../data/idempotency-records.ts';
import type { Plan, Role } from '../schemas/agents.ts';
import type { RouteDefinition } from './route-table.ts';

export interface Caller {
  agentId: string;
  role: Role;
  plan: Plan;
  apiKeyHash: string;
}

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
  input: { body: unknown; query: unknown; params: unknown };
  idempotency?: { scope: string; key: string; replay?: StoredResponse };
}

export type ApiContext = Context & { api: ApiState };

export interface MiddyApiRequest {
  event: APIGatewayProxyEventV2;
  context: ApiContext;
  response: unknown;
  error: unknown;
  internal: Record<string, unknown>;
}

/** What a handler returns: the `data` of the envelope, and optionally a status and headers. */
export interface HandlerResult {
  status?: number;
  data: unknown;
  headers?: Record<string, string>;
}
