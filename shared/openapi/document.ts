// The OpenAPI 3.1 document, generated from the route table and its zod schemas. Every documented
// error response is derived from the same flags the middleware stack acts on.
import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import type { ErrorCode } from '../http/errors.ts';
import { ERROR_STATUS } from '../http/errors.ts';
import { routeList } from '../http/routes.ts';
import { errorCodesFor, type RouteDefinition } from '../http/route-table.ts';
import { ErrorBody, envelope } from '../schemas/common.ts';

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  'auth/invalid-key': 'Missing API Key, or Invalid API Key (malformed, unknown, revoked or of the other environment)',
  'auth/forbidden': 'The caller’s role may not call this endpoint',
  'not-found': 'Unknown id, or a record the caller is not a party to',
  'validation/invalid': 'Body not JSON, wrong content type, or missing, unknown or ill-typed fields (see details)',
  'validation/too-large': 'Body over the endpoint’s size limit',
  conflict: 'The record’s state does not allow this change',
  'idempotency/conflict': 'Idempotency-Key reused with a different request, or while the first is still running',
  'rate-limit': 'Over the plan’s limit; see Retry-After',
  internal: 'Unexpected error; the requestId identifies it in the logs',
};

const rateLimitHeaders = {
  'X-RateLimit-Limit': z.int().meta({ description: 'Requests allowed in the window closer to exhaustion' }),
  'X-RateLimit-Remaining': z.int().meta({ description: 'Requests left in that window' }),
  'X-RateLimit-Reset': z.int().meta({ description: 'Unix epoch seconds at which that window resets' }),
};

function headersFor(route: RouteDefinition) {
  return z.object({
    'X-Request-Id': z.string().meta({ description: 'The request id, as in meta.requestId' }),
    ...(route.rateLimited ? rateLimitHeaders : {}),
  });
}

function responsesFor(route: RouteDefinition): ZodOpenApiResponsesObject {
  const success = route.response.raw ? route.response.schema : envelope(route.response.schema);
  const responses: ZodOpenApiResponsesObject = {
    [route.response.status]: {
      description: route.response.description,
      headers: headersFor(route),
      content: { 'application/json': { schema: success } },
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(route)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of byStatus) {
    const retryAfter = codes.includes('rate-limit') ? { 'Retry-After': z.int().meta({ description: 'Seconds to wait' }) } : {};
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join('; '),
      headers: headersFor(route).extend(retryAfter),
      content: { 'application/json': { schema: ErrorBody } },
    };
  }
  return responses;
}

function operationFor(route: RouteDefinition): ZodOpenApiOperationObject {
  const isPost = route.method === 'POST';
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: route.auth === 'apiKey' ? [{ bearerAuth: [] }] : [],
    requestParams: {
      ...(route.request.params ? { path: route.request.params as z.ZodObject } : {}),
      ...(route.request.query ? { query: route.request.query as z.ZodObject } : {}),
      ...(isPost
        ? {
            header: z.object({
              'Idempotency-Key': z.string().min(1).max(255).optional().meta({
                description: 'Retries with the same key and request within 24 h replay the first response',
              }),
            }),
          }
        : {}),
    },
    ...(route.request.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: route.request.body } } } }
      : {}),
    responses: responsesFor(route),
  };
}

export function buildOpenApiDocument(serverUrl?: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routeList) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationFor(route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Agent Marketplace API',
      version: '1.0.0',
      description:
        'A B2B exchange where AI agents buy and sell. Every success is `{data, meta}`; every failure is ' +
        '`{error, code, status, requestId, details?}`. Authenticate with `Authorization: Bearer <API key>`.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: mk_test_… (sandbox) or mk_live_… (production)' },
      },
    },
    paths,
  });
}
