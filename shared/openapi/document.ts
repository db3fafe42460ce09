// The OpenAPI 3.1 document, generated from the route list and its zod schemas at build time (CDK
// synth, the local runtime's start), never inside a function. Every documented error response is
// derived from the same flags the middleware stack acts on, and described from the one error table.
// Shared pieces are components referenced by every operation (headers, error responses, the
// Idempotency-Key and pagination parameters, named schemas), which keeps the document small enough
// for an agent's context; each operation carries its description and examples from its route row.
// What the document says beyond the rows is shared/openapi/content.ts; the passes that keep it within
// its size budget, shared/openapi/size-passes.ts.
import * as z from '../schemas/zod.ts';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathItemObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { ERROR_CODES, statusOf, type ErrorCode } from '../http/error-codes.ts';
import { ErrorBody, envelope } from '../http/response-schemas.ts';
import { ROUTE_TAGS, errorCodesFor, type RouteDefinition, type RouteWithDocument } from '../http/route-table.ts';
import { EXAMPLE_IDS, EXAMPLE_ORDER_CREATED_EVENT } from '../schemas/examples.ts';
import { CountryCode } from '../schemas/common.ts';
import { CurrencyCode } from '../schemas/money.ts';
import { SearchItemBase } from '../schemas/search-results.ts';
import {
  API_TITLE,
  API_VERSION,
  ERROR_EXAMPLES,
  EXTENSIONS,
  FIELD_DESCRIPTIONS,
  HEADERS,
  PARAMETERS,
  PUBLISHER,
  STAGE_SERVER,
  TAG_DESCRIPTIONS,
  UPLOAD_SCHEMAS,
  WEBHOOK_EVENTS,
  WEBHOOK_PARAMETERS,
  WEBHOOK_RESPONSES,
  callersOf,
  idDescriptions,
  sandboxOnlyNote,
  type WebhookEventDocumentation,
} from './content.ts';
import { BUYER_FLOW, CONVENTIONS, SELLER_FLOW, SUMMARY, WEBHOOK_VERIFICATION } from './guide.ts';
import { objectAt, ref, type JsonObject } from './json.ts';
import { sayEachThingOnce } from './size-passes.ts';

/**
 * The served document's size limit in bytes, so that an agent can read it whole: 150 KB until round 4's
 * guard rails (restricted keys, approvals, a scope on every operation) took it to 177 KB
 * (docs/decisions/api-document-budget.md), the request log to 185 KB and requests for quotes to 219 KB
 * (docs/decisions/api-document-budget-rfqs.md); a production stack's document stays within this. A sandbox's document also holds the sandbox's test helpers, within
 * SANDBOX_API_DOCUMENT_MAX_BYTES (docs/decisions/sandbox-document-budget.md). Tests hold both;
 * docs/api-document.md records their sizes and what each new operation costs.
 */
export const API_DOCUMENT_MAX_BYTES = 222_000;
export const SANDBOX_API_DOCUMENT_MAX_BYTES = 235_000;

/** `auth/invalid-key` → `InvalidKey`, `idempotency/conflict` → `IdempotencyConflict`: a component name. */
function responseNameOf(code: ErrorCode): string {
  return pascalCase(code.replace(/^(auth|validation|request)\//, ''));
}

function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * One error response component per set of codes that share a status. The rate-limit headers every
 * metered response carries are documented once (components.headers and the API description), not
 * listed on each response: .spectral.yaml says why.
 */
function errorResponse(codes: readonly ErrorCode[]): ZodOpenApiResponseObject {
  const status = statusOf(codes[0] as ErrorCode);
  const shown = codes.find((code) => ERROR_EXAMPLES[code] !== undefined);
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].description}.`).join(' '),
    headers: {
      'X-Request-Id': ref('headers', 'X-Request-Id'),
      ...(codes.includes('rate-limit')
        ? { 'Retry-After': ref('headers', 'Retry-After'), 'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'), 'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'), 'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset') }
        : {}),
      ...(status >= 400 && status < 500 ? { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') } : {}),
    },
    content: {
      'application/json': {
        schema: ref('schemas', 'Error'),
        ...(shown ? { example: { ...ERROR_EXAMPLES[shown], code: shown, status, requestId: EXAMPLE_IDS.request } } : {}),
      },
    },
  };
}

/** The error responses of a route, as references to components (registered in `registry`). */
function errorResponsesFor(route: RouteDefinition, registry: Map<string, ZodOpenApiResponseObject>): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(route)) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const name = codes.map(responseNameOf).join('Or');
    if (!registry.has(name)) registry.set(name, errorResponse(codes));
    responses[String(status) as `4${string}`] = ref('responses', name);
  }
  return responses;
}

const envelopes = new Map<z.ZodMiniType, z.ZodMiniType>();

/** The success envelope around a data schema; a component (`<Data>Envelope`) when the data schema is one. */
function envelopeOf(data: z.ZodMiniType): z.ZodMiniType {
  const id = (z.globalRegistry.get(data) as { id?: string } | undefined)?.id;
  if (!id) return envelope(data);
  let schema = envelopes.get(data);
  if (!schema) {
    schema = z.withMeta(envelope(data), { id: `${id}Envelope` });
    envelopes.set(data, schema);
  }
  return schema;
}

function successResponseFor(route: RouteWithDocument): ZodOpenApiResponseObject {
  const raw = route.response.raw === true;
  const rawType = route.response.rawContentType;
  // The envelope's `meta` is the same on every success: its schema says so once, the examples leave it out.
  const example = raw ? route.examples.response : { data: route.examples.response };
  return {
    description: route.response.description,
    // No headers: the request id, rate-limit and replay headers are on every response, as the API
    // description says once and every error response (a shared component) lists. Naming them on each
    // success too would take a twentieth of the document's size budget and tell an agent nothing new.
    content: {
      [route.response.contentType ?? 'application/json']: { schema: raw ? route.response.schema : envelopeOf(route.response.schema), example },
      // A second representation of the same answer, chosen by Accept (the raw template file). When it
      // shares the envelope's media type, the operation's description says how to ask for it.
      ...(rawType && rawType !== 'application/json'
        ? { [rawType]: { schema: z.annotated(z.string().check(z.maxLength(1024 * 1024)), { description: 'The raw file, when Accept names this type alone' }) } }
        : {}),
    },
  };
}

function requestBodyFor(route: RouteWithDocument, body: z.ZodMiniType) {
  const optional = body.safeParse(undefined).success;
  return {
    required: !optional,
    content: {
      'application/json': { schema: body, ...(route.examples.body !== undefined ? { example: route.examples.body } : {}) },
      ...Object.fromEntries((route.uploads ?? []).map((mediaType) => [mediaType, { schema: UPLOAD_SCHEMAS[mediaType] }])),
    },
  };
}

function operationFor(route: RouteWithDocument, registry: Map<string, ZodOpenApiResponseObject>): ZodOpenApiOperationObject {
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\n**Callers**: ${callersOf(route)}${sandboxOnlyNote(route)}`,
    tags: [route.tag],
    // The document's default is the bearer key; public operations say they need none.
    ...(route.auth === 'public' ? { security: [] } : {}),
    // The scope a restricted key needs (`main`: the main key only; `any`: any key), machine-readable.
    ...(route.scope !== null ? { 'x-required-scope': route.scope } : {}),
    requestParams: {
      ...(route.request.params ? { path: route.request.params as z.ZodMiniObject } : {}),
      ...(route.request.query ? { query: route.request.query as z.ZodMiniObject } : {}),
    },
    ...(route.method === 'POST' ? { parameters: [ref('parameters', 'Idempotency-Key')] } : {}),
    ...(route.request.body ? { requestBody: requestBodyFor(route, route.request.body) } : {}),
    responses: { [route.response.status]: successResponseFor(route), ...errorResponsesFor(route, registry), ...protocolResponsesFor(route) },
  };
}

/** A protocol endpoint's other answers (POST /mcp: the bodiless 202, the transport's JSON-RPC error). */
function protocolResponsesFor(route: RouteWithDocument): ZodOpenApiResponsesObject {
  return Object.fromEntries(
    (route.protocolResponses ?? []).map(({ status, description, schema, example }) => [
      String(status),
      { description, ...(schema ? { content: { 'application/json': { schema, ...(example !== undefined ? { example } : {}) } } } : {}) },
    ]),
  );
}

/** The POST a receiver gets for `types`, its body `envelope`. */
function webhookOperation(types: readonly string[], description: string | undefined, envelope: z.ZodMiniType) {
  const [first] = types as [string];
  return {
    // One operation per event type; types that share an envelope share one (components.pathItems),
    // without an id, a summary or a description: each webhook entry that refers to it gives its own,
    // which readers (Redoc among them) take for the operation's when the operation has none.
    ...(types.length === 1 ? { operationId: `${first.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`, summary: first, description } : {}),
    tags: ['Webhooks'],
    security: [],
    parameters: Object.keys(WEBHOOK_PARAMETERS).map((name) => ref('parameters', name)),
    requestBody: {
      required: true,
      content: { 'application/json': { schema: envelope, ...(types.includes('order.created') ? { example: EXAMPLE_ORDER_CREATED_EVENT } : {}) } },
    },
    responses: { '2XX': ref('responses', 'WebhookAcknowledged'), default: ref('responses', 'WebhookRefused') },
  };
}

/**
 * The `webhooks` section: an entry per event type. Types whose events share an envelope (the order
 * changes, the negotiation moves, the feed outcomes) refer to one shared POST in components.pathItems,
 * each entry with its own summary and description (a Path Item reference may carry both, OpenAPI 3.1;
 * the shared operation has neither, so a reader shows the entry's): the payload is described once, not
 * five times. How to verify and answer is said once, in the
 * Webhooks tag and the API description.
 */
export function webhooksFor(events: Record<string, WebhookEventDocumentation>): { webhooks: ZodOpenApiPathsObject; pathItems: Record<string, ZodOpenApiPathItemObject> } {
  const typesByEnvelope = new Map<z.ZodMiniType, string[]>();
  for (const [type, { envelope }] of Object.entries(events)) typesByEnvelope.set(envelope, [...(typesByEnvelope.get(envelope) ?? []), type]);
  const webhooks: ZodOpenApiPathsObject = {};
  const pathItems: Record<string, ZodOpenApiPathItemObject> = {};
  for (const [type, { description, envelope }] of Object.entries(events)) {
    const types = typesByEnvelope.get(envelope) ?? [type];
    if (types.length === 1) {
      webhooks[type] = { post: webhookOperation(types, description, envelope) };
      continue;
    }
    const name = String(z.globalRegistry.get(envelope)?.id ?? types.join('_')).replace(/Event$/, 'Webhook');
    pathItems[name] ??= { post: webhookOperation(types, undefined, envelope) };
    webhooks[type] = { $ref: `#/components/pathItems/${name}`, summary: type, description };
  }
  return { webhooks, pathItems };
}

/** The routes the document describes: all but the pages for people (the dashboard, the reference page's files) and other protocols' discovery documents (the A2A agent card). */
export function documentedRoutes(routes: readonly RouteWithDocument[]): readonly RouteWithDocument[] {
  return routes.filter((route) => route.pageForPeople !== true && route.discoveryDocument !== true);
}

export interface OpenApiDocumentOptions {
  /** Absolute base URL of the API; without it, the template of a deployed stage's URL. */
  serverUrl?: string;
  /** Event types for the `webhooks` section; default WEBHOOK_EVENTS. */
  webhookEvents?: Record<string, WebhookEventDocumentation>;
}

export function buildOpenApiDocument(routeTable: readonly RouteWithDocument[], options: OpenApiDocumentOptions = {}) {
  const errorResponses = new Map<string, ZodOpenApiResponseObject>();
  const paths: ZodOpenApiPathsObject = {};
  const routes = documentedRoutes(routeTable);
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationFor(route, errorResponses) };
  }
  const usedTags = new Set(routes.map((route) => route.tag));
  const { webhooks, pathItems } = webhooksFor(options.webhookEvents ?? WEBHOOK_EVENTS);
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: API_TITLE,
        version: API_VERSION,
        summary: 'A B2B exchange where AI agents buy and sell',
        description: `${SUMMARY}\n\nA guide for agents: [/llms.txt](/llms.txt). Versioning: the path prefix \`/v1\`; changes within it are additive, and deprecations are announced with \`Deprecation\` and \`Sunset\` headers.\n\n## Conventions\n\n${CONVENTIONS}\n\n## Seller flow\n\n${SELLER_FLOW}\n\n## Buyer flow\n\n${BUYER_FLOW}\n\n## Webhooks\n\n${WEBHOOK_VERIFICATION}`,
        contact: PUBLISHER.contact,
        license: PUBLISHER.license,
      },
      security: [{ bearerAuth: [] }],
      servers: [options.serverUrl ? { url: options.serverUrl, description: 'This stage (sandbox or production)', 'x-internal': false } : STAGE_SERVER],
      tags: ROUTE_TAGS.filter((tag) => usedTags.has(tag)).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
      paths,
      webhooks,
      components: {
        schemas: { Error: ErrorBody, CountryCode, CurrencyCode, SearchItemBase },
        headers: HEADERS,
        parameters: { ...PARAMETERS, ...WEBHOOK_PARAMETERS },
        responses: { ...Object.fromEntries([...errorResponses].sort(([a], [b]) => a.localeCompare(b))), ...WEBHOOK_RESPONSES },
        pathItems,
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'The agent’s API key (`mk_test_…` sandbox, `mk_live_…` production), from registration or rotation',
          },
        },
      },
    },
    { override: documentSchema },
  );
  applyQueryExamples(document as unknown as JsonObject, routes);
  sayEachThingOnce(document as unknown as JsonObject);
  return document;
}

/** Each row's query example on its own (not shared) query parameters. */
function applyQueryExamples(document: JsonObject, routes: readonly RouteWithDocument[]): void {
  for (const route of routes) {
    const operation = objectAt(objectAt(objectAt(document.paths)?.[route.path])?.[route.method.toLowerCase()]);
    for (const parameter of (operation?.parameters ?? []) as JsonObject[]) {
      const value = route.examples.query?.[parameter.name as string];
      if (parameter.in !== 'query' || value === undefined) continue;
      // The wire carries text; the example has the documented type (an integer, a list of names).
      const type = objectAt(parameter.schema)?.type;
      parameter.example = typeof value !== 'string' ? value : type === 'integer' ? Number(value) : type === 'array' ? value.split(',') : value;
    }
  }
}

function documentAsExtension(jsonSchema: Record<string, unknown>, base: z.ZodMiniObject): void {
  const baseId = (z.globalRegistry.get(base) as { id?: string } | undefined)?.id;
  const baseKeys = new Set(Object.keys(base.shape));
  const properties = Object.entries((jsonSchema.properties ?? {}) as Record<string, unknown>).filter(([key]) => !baseKeys.has(key));
  const required = ((jsonSchema.required ?? []) as string[]).filter((key) => !baseKeys.has(key));
  const description = jsonSchema.description;
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, {
    ...(description ? { description } : {}),
    allOf: [{ $ref: `#/components/schemas/${String(baseId)}` }, { type: 'object', properties: Object.fromEntries(properties), ...(required.length > 0 ? { required } : {}) }],
  });
}

/** Adjustments every schema of the document gets. */
function documentSchema({ jsonSchema, zodSchema, io }: { jsonSchema: Record<string, unknown>; zodSchema: z.core.$ZodType; io: 'input' | 'output' }): void {
  documentIntegerFormat(jsonSchema);
  const description = FIELD_DESCRIPTIONS.get(zodSchema) ?? idDescriptions.get(zodSchema);
  if (description && jsonSchema.description === undefined) jsonSchema.description = description;
  const base = EXTENSIONS.get(zodSchema);
  if (base) documentAsExtension(jsonSchema, base);
  // Responses may gain fields within /v1 (docs/versioning.md): a client must ignore fields it does not
  // know, so response objects are not closed. Strict objects (Money, addresses) stay closed.
  const def = zodSchema._zod.def as { type: string; catchall?: unknown };
  if (io === 'output' && def.type === 'object' && def.catchall === undefined && jsonSchema.additionalProperties === false) {
    delete jsonSchema.additionalProperties;
  }
}

/** Every integer says whether it fits 32 bits (OpenAPI `format`), from the bounds its schema states. */
function documentIntegerFormat(jsonSchema: Record<string, unknown>): void {
  const types = Array.isArray(jsonSchema.type) ? (jsonSchema.type as unknown[]) : [jsonSchema.type];
  if (!types.includes('integer') || jsonSchema.format !== undefined) return;
  const minimum = typeof jsonSchema.minimum === 'number' ? jsonSchema.minimum : -Infinity;
  const maximum = typeof jsonSchema.maximum === 'number' ? jsonSchema.maximum : Infinity;
  jsonSchema.format = minimum >= -(2 ** 31) && maximum <= 2 ** 31 - 1 ? 'int32' : 'int64';
}
