// The OpenAPI 3.1 document, generated from the route list and its zod schemas at build time (CDK
// synth, the local runtime's start), never inside a function. Every documented error response is
// derived from the same flags the middleware stack acts on, and described from the one error table.
import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { ERROR_CODES, statusOf, type ErrorCode } from '../http/error-codes.ts';
import { errorCodesFor, type RouteDefinition } from '../http/route-table.ts';
import { ErrorBody, envelope } from '../http/response-schemas.ts';

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
      content: {
        'application/json': { schema: success },
        ...(route.response.rawContentType ? { [route.response.rawContentType]: { schema: z.string().meta({ description: 'The raw file, when Accept names this type alone' }) } } : {}),
      },
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(route)) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  for (const [status, codes] of byStatus) {
    const retryAfter = codes.includes('rate-limit') ? { 'Retry-After': z.int().meta({ description: 'Seconds to wait' }) } : {};
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].description}`).join('; '),
      headers: headersFor(route).extend(retryAfter),
      content: { 'application/json': { schema: ErrorBody } },
    };
  }
  return responses;
}

const UPLOAD_SCHEMAS = {
  'text/csv': z.string().meta({ description: 'The CSV file: a header row, then one row per product' }),
  'multipart/form-data': z.object({
    file: z.string().meta({ format: 'binary', description: 'The feed file (CSV or JSON)' }),
    format: z.enum(['csv', 'json']).optional().meta({ description: 'Overrides the format inferred from the file name' }),
  }),
} as const;

function requestBodyFor(route: RouteDefinition, body: z.ZodType) {
  const optional = body.safeParse(undefined).success;
  return {
    required: !optional,
    content: {
      'application/json': { schema: body },
      ...Object.fromEntries((route.uploads ?? []).map((mediaType) => [mediaType, { schema: UPLOAD_SCHEMAS[mediaType] }])),
    },
  };
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
    ...(route.request.body ? { requestBody: requestBodyFor(route, route.request.body) } : {}),
    responses: responsesFor(route),
  };
}

export function buildOpenApiDocument(routes: readonly RouteDefinition[], serverUrl?: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationFor(route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Agent Marketplace API',
      version: '1.0.0',
      description:
        'A B2B exchange where AI agents buy and sell. Every success is `{data, meta}`; every failure is ' +
        '`{error, code, status, requestId, details?}`. Authenticate with `Authorization: Bearer <API key>`. ' +
        'Error codes: ' +
        Object.entries(ERROR_CODES)
          .map(([code, { status, description }]) => `\`${code}\` (${status}) ${description}`)
          .join('; ') +
        '.',
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
