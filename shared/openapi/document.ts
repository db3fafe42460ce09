// The OpenAPI 3.1 document, generated from the route list and its zod schemas at build time (CDK
// synth, the local runtime's start), never inside a function. Every documented error response is
// derived from the same flags the middleware stack acts on, and described from the one error table.
// Shared pieces are components referenced by every operation (headers, error responses, the
// Idempotency-Key and pagination parameters, named schemas), which keeps the document small enough
// for an agent's context; each operation carries its description and examples from its route row.
import * as z from '../schemas/zod.ts';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathItemObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
  type oas31,
} from 'zod-openapi';
import { ERROR_CODES, statusOf, type ErrorCode } from '../http/error-codes.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN_SOURCE } from '../http/idempotency-key.ts';
import { UNLIMITED } from '../http/rate-limit-headers.ts';
import { ErrorBody, ErrorDetail, Meta, RequestId, envelope } from '../http/response-schemas.ts';
import { errorCodesFor, type RouteDefinition, type RouteTag, type RouteWithDocument } from '../http/route-table.ts';
import { EXAMPLE_IDS, EXAMPLE_ORDER_CREATED_EVENT } from '../schemas/examples.ts';
import type { IdKind } from '../ids.ts';
import { Agent, AgentWithApiKey } from '../schemas/agents.ts';
import { RestrictedKey, RestrictedKeyWithSecret } from '../schemas/keys.ts';
import { Order, OrderPreview } from '../schemas/trade.ts';
import { Feed, FeedWithUpload, Offer, OfferCompact, Product, ProductCompact, ProductWithOffers, SellerOffer, SellerProductWithOffers } from '../schemas/catalog.ts';
import { CountryCode, LIST_CURSOR_MAX, TEXT_PATTERN_MULTI_LINE, TEXT_PATTERN_SINGLE_LINE, idOf } from '../schemas/common.ts';
import { CurrencyCode } from '../schemas/money.ts';
import { SearchIntentPage, SearchItem, SearchItemBase, SearchItemCompact, SearchPage } from '../schemas/search.ts';
import { Delivery, DeliveryWithPayload } from '../schemas/webhooks.ts';
import type { DeliveredEventType } from '../schemas/event-data.ts';
import { EVENT_ENVELOPES } from '../schemas/events.ts';
import { BUYER_FLOW, CONVENTIONS, SELLER_FLOW, SUMMARY, WEBHOOK_VERIFICATION } from './guide.ts';

export const API_TITLE = 'Agent Marketplace API';

/**
 * The served document's size limit in bytes, so that an agent can read it whole: 150 KB until round 4's
 * guard rails (restricted keys, approvals, a scope on every operation) took it to 177 KB
 * (docs/decisions/api-document-budget.md). Tests hold it to this; docs/api-document.md records its size
 * and what each new operation costs.
 */
export const API_DOCUMENT_MAX_BYTES = 212_000;
export const API_VERSION = '1.0.0';

/** Every tag with what its operations are for (a route's tag must be one of these). */
export const TAG_DESCRIPTIONS: Record<RouteTag, string> = {
  Agents: 'Register a buyer or seller agent, read and change its profile, rotate its key.',
  Search: 'Find offers by a plain-language intent or filters: where a buyer starts.',
  Catalog: 'Products and offers by id; a seller’s own products with their private prices.',
  'Seller feeds': 'Sellers load their catalog as CSV or JSON feeds, processed asynchronously.',
  Negotiation: 'Buyer and seller agree on unit price and quantity, in turns.',
  'Requests for quotes': 'A buyer asks many sellers at once; each sends one sealed quote; the buyer awards one, which becomes an accepted negotiation to order from.',
  Orders: 'Orders placed from accepted negotiations, their life cycle and audit trail.',
  Webhooks: 'Signed POSTs of events to your URL (see `webhooks`), their delivery log and retries.',
  Events: 'The events an agent is a party to, as a feed to read or follow.',
  Operations: 'The documents that describe this API, and the readiness probe.',
  MCP: 'This API as Model Context Protocol tools: point an MCP client at `/mcp` with your key.',
};

/**
 * Who publishes the API. The domain is a placeholder until the marketplace's public site exists
 * (docs/decisions/document-publisher.md); there is no license to grant: the API is proprietary.
 */
const PUBLISHER = {
  contact: { name: 'Agent Marketplace platform team', email: 'api@agent-marketplace.example', url: 'https://agent-marketplace.example/support' },
  license: { name: 'Proprietary: all rights reserved', url: 'https://agent-marketplace.example/terms' },
};

/**
 * `servers` of the document as built: the URL of a deployed stage's API (its ApiUrl output). The
 * function that serves the document replaces it with the origin the request came to, so an agent
 * always sees the stage it talks to (locally the runtime's http://localhost:…).
 */
const STAGE_SERVER = {
  url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
  description: 'A deployed stage (sandbox or production): the stack’s ApiUrl output',
  variables: {
    apiId: { default: 'abcdef1234', description: 'The HTTP API’s id' },
    region: { default: 'eu-central-1', description: 'The AWS region of the stack' },
  },
  'x-internal': false,
};

const ref = (kind: 'examples' | 'headers' | 'parameters' | 'responses' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Response headers, each documented once. */
const HEADERS: Record<string, oas31.HeaderObject> = {
  'X-Request-Id': {
    description: 'The request id (`meta.requestId`, the error’s `requestId`)',
    required: true,
    schema: { type: 'string', pattern: '^req_[0-9A-HJKMNP-TV-Z]{26}$', maxLength: 30, example: EXAMPLE_IDS.request },
  },
  'X-RateLimit-Limit': {
    description: `Requests allowed in the window closer to exhaustion (minute or day); ${UNLIMITED}: unlimited`,
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: UNLIMITED, example: 60 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in that window',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: UNLIMITED, example: 59 },
  },
  'X-RateLimit-Reset': {
    description: 'Unix time in seconds at which that window resets',
    required: true,
    schema: { type: 'integer', format: 'int64', minimum: 0, maximum: 253402300799, example: 1795424460 },
  },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400, example: 17 },
  },
  'Idempotent-Replayed': {
    description: '`true`: the stored response of an earlier request with this Idempotency-Key',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Request parameters shared by many operations. */
const PARAMETERS: Record<string, oas31.ParameterObject> = {
  'Idempotency-Key': {
    in: 'header',
    name: 'Idempotency-Key',
    required: false,
    description: 'Any unique printable ASCII (a UUID, your order reference): a retry with the same key and request within 24 h replays the first response instead of acting twice',
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN_SOURCE, example: 'po-2026-0042-attempt' },
  },
};



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
 * Error examples where they show more than the Error schema does: `details`, per field or with the
 * state that refused the change. The other error bodies differ only in their message.
 */
const ERROR_EXAMPLES: Partial<Record<ErrorCode, { error: string; details: { path: string; message: string }[] }>> = {
  conflict: { error: 'The session is accepted; only an open session can be countered', details: [{ path: 'status', message: 'accepted' }] },
  'validation/invalid': {
    error: 'Request validation failed — quantity: Must be at least 10 (the offer’s minimum)',
    details: [{ path: 'quantity', message: 'Must be at least 10 (the offer’s minimum)' }],
  },
};

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

const UPLOAD_SCHEMAS = {
  'text/csv': z.annotated(z.string().check(z.maxLength(5 * 1024 * 1024)), { id: 'CsvFeedFile', description: 'A header row, then one row per product (prices in major units)' }),
  'multipart/form-data': z.annotated(z.object({
      file: z.annotated(z.string().check(z.maxLength(5 * 1024 * 1024)), { format: 'binary', description: 'The feed file (CSV or JSON)' }),
      format: z.annotated(z.optional(z.enum(['csv', 'json'])), { description: 'Overrides the format the file name implies' }),
    }), { id: 'MultipartFeedUpload' }),
} as const;

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

const ROLE_NAMES = { buyer: 'buyers', seller: 'sellers' } as const;

/** The sentence on callers, from the row's auth and roles: the same flags the middleware enforces. */
export function callersOf(route: RouteDefinition): string {
  if (route.auth === 'public') return 'anyone, without a key.';
  if (route.roles.length === 2) return 'buyers and sellers.';
  // The other role's 403 is in the operation's responses.
  return `${ROLE_NAMES[route.roles[0] as 'buyer' | 'seller']} only.`;
}

/**
 * What the calling key needs (the route's `scope`, which the pipeline checks), in words: llms.txt says
 * it beside the callers; the OpenAPI document has it as `x-required-scope`.
 */
export function keyScopeOf(route: RouteDefinition): string {
  if (route.scope === 'main') return 'the main key only';
  if (route.scope === 'any' || route.scope === null) return 'any key';
  return `key scope \`${route.scope}\``;
}

/** "401 `auth/invalid-key`; 404 `not-found`; …" */
export function errorSummaryOf(route: RouteDefinition): string {
  return errorCodesFor(route)
    .map((code) => ({ code, status: statusOf(code) }))
    .sort((a, b) => a.status - b.status)
    .map(({ code, status }) => `${status} \`${code}\``)
    .join(', ');
}

function operationFor(route: RouteWithDocument, registry: Map<string, ZodOpenApiResponseObject>): ZodOpenApiOperationObject {
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\n**Callers**: ${callersOf(route)}`,
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

/** Webhook request headers: what a receiver checks. */
const WEBHOOK_PARAMETERS: Record<string, oas31.ParameterObject> = {
  'X-Marketplace-Signature': {
    in: 'header',
    name: 'X-Marketplace-Signature',
    required: true,
    description: '`sha256=` + hex HMAC-SHA256 of the exact body',
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$', maxLength: 71 },
  },
  'X-Marketplace-Timestamp': {
    in: 'header',
    name: 'X-Marketplace-Timestamp',
    required: true,
    description: 'When this attempt was sent, Unix seconds',
    schema: { type: 'string', pattern: '^[0-9]{1,12}$', maxLength: 12, example: '1795424460' },
  },
  'X-Marketplace-Event-Id': {
    in: 'header',
    name: 'X-Marketplace-Event-Id',
    required: true,
    description: 'The envelope’s `id`: deduplicate on it',
    schema: { type: 'string', pattern: '^evt_[0-9A-HJKMNP-TV-Z]{26}$', maxLength: 30, example: EXAMPLE_IDS.event },
  },
  'webhook-id': {
    in: 'header',
    name: 'webhook-id',
    required: true,
    description: 'Standard Webhooks: the event id',
    schema: { type: 'string', pattern: '^evt_[0-9A-HJKMNP-TV-Z]{26}$', maxLength: 30, example: EXAMPLE_IDS.event },
  },
  'webhook-timestamp': {
    in: 'header',
    name: 'webhook-timestamp',
    required: true,
    description: 'Standard Webhooks: Unix seconds, signed; refuse if over 5 min away',
    schema: { type: 'string', pattern: '^[0-9]{1,12}$', maxLength: 12, example: '1795424460' },
  },
  'webhook-signature': {
    in: 'header',
    name: 'webhook-signature',
    required: true,
    description: 'Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=$', maxLength: 47 },
  },
};

/** What a receiver learns about one event type: when it is sent, to whom, and its `data` (when declared). */
export interface WebhookEventDocumentation {
  description: string;
  /** The envelope with its `data` declared (shared/schemas/events.ts). */
  envelope: z.ZodMiniType;
}

/** When each event is sent and to whom; its `data` schema is the one the event is recorded with (EVENT_ENVELOPES). */
const WEBHOOK_EVENT_DESCRIPTIONS: Record<DeliveredEventType, string> = {
  'order.created': 'A buyer placed an order. Its data is exactly the spec’s fields.',
  'order.confirmed': 'The seller confirmed the order.',
  'order.shipped': 'The seller shipped the order (with carrier and tracking).',
  'order.delivered': 'The seller marked the order delivered.',
  'order.completed': 'The buyer completed the order.',
  'order.cancelled': 'A party cancelled the order (the quantity returns to stock).',
  'order.approval_required': 'A restricted key’s order is over its `approvalAbove`: it waits for the main key (approve or decline). To the buyer only.',
  'order.declined': 'The main key declined the order, or nobody answered in time (`approval_expired`); stock and spend released. To the buyer only.',
  'rfq.created': 'A buyer asks for quotes on something this seller sells (or invited it): quote with POST /v1/rfqs/{rfqId}/quotes before `closesAt`. To that seller only: never who else was asked.',
  'rfq.quote_received': 'A seller quoted on the buyer’s request for quotes, or replaced its quote. To the buyer only.',
  'rfq.awarded': 'The buyer awarded a quote: `sessionId` is an accepted negotiation session at its terms, ready for POST /v1/create-order. To the buyer and the winning seller.',
  'rfq.closed': 'A request for quotes takes no more quotes: to each seller it was sent to when another seller’s quote is awarded or the buyer cancels (`status`), and to the buyer when `closesAt` passes.',
  'negotiation.started': 'A buyer opened a session.',
  'negotiation.offer': 'negotiation.counter, under this name for subscriptions that name it.',
  'negotiation.counter': 'A party (or the seller’s policy) countered.',
  'negotiation.accepted': 'The terms were accepted: the buyer may order.',
  'negotiation.rejected': 'A party rejected the session, or it expired (`reason`).',
  'feed.processed': 'feed.completed, under this name for subscriptions that name it.',
  'feed.completed': 'A feed was processed (rows may have failed: see its counts); to its seller.',
  'feed.failed': 'A feed could not be processed (`failureReason`); to its seller.',
  'webhook.test': 'Sent by `POST /v1/webhooks/{id}/test` to that subscription only.',
};

export const WEBHOOK_EVENTS: Record<DeliveredEventType, WebhookEventDocumentation> = Object.fromEntries(
  (Object.keys(WEBHOOK_EVENT_DESCRIPTIONS) as DeliveredEventType[]).map((type): [DeliveredEventType, WebhookEventDocumentation] => [
    type,
    { description: WEBHOOK_EVENT_DESCRIPTIONS[type], envelope: EVENT_ENVELOPES[type] },
  ]),
) as Record<DeliveredEventType, WebhookEventDocumentation>;

const WEBHOOK_RESPONSES = {
  WebhookAcknowledged: { description: 'Any 2xx within 10 s acknowledges it; the body is ignored (its first 1 KB is kept)' },
  WebhookRefused: { description: 'Anything else, a timeout or a redirect: retried on the schedule (API description), then failed' },
};

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

/** The routes the document describes: all but the pages for people (the dashboard, the reference page's files). */
export function documentedRoutes(routes: readonly RouteWithDocument[]): readonly RouteWithDocument[] {
  return routes.filter((route) => route.pageForPeople !== true);
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
      tags: (Object.keys(TAG_DESCRIPTIONS) as RouteTag[]).filter((tag) => usedTags.has(tag)).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
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
  shareRepeatedExamples(document as unknown as JsonObject);
  compact(document as unknown as JsonObject);
  shareStringSchemas(document as unknown as JsonObject);
  shareListCursor(document as unknown as JsonObject);
  inlineSingleUseEnvelopes(document as unknown as JsonObject);
  return document;
}

/** The generated document, walked as plain JSON. */
interface JsonObject {
  [key: string]: unknown;
}

const objectAt = (value: unknown): JsonObject | undefined => (value !== null && typeof value === 'object' ? (value as JsonObject) : undefined);
const valuesOf = (value: unknown): unknown[] => Object.values(objectAt(value) ?? {});

/**
 * What the generator repeats without saying more: a parameter's description and example copied into
 * its schema, empty parameter lists, a nullable primitive spelt as anyOf, the event union's mapping.
 * Dropped, the document stays under its size budget as operations are added. (Integer bounds stay,
 * even JavaScript's safe-integer range: every integer states both.)
 */
function compact(document: JsonObject): void {
  const parameters = [
    ...valuesOf(document.paths).flatMap((item) => valuesOf(item).flatMap((operation) => (objectAt(operation)?.parameters ?? []) as unknown[])),
    ...valuesOf(objectAt(document.components)?.parameters),
  ];
  for (const operation of valuesOf(document.paths).flatMap(valuesOf).map(objectAt)) {
    if (Array.isArray(operation?.parameters) && operation.parameters.length === 0) delete operation.parameters;
  }
  for (const parameter of parameters.map(objectAt)) {
    const schema = objectAt(parameter?.schema);
    if (!parameter || !schema) continue;
    if (schema.description === parameter.description) delete schema.description;
    if (parameter.example !== undefined) delete schema.example;
  }
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    const object = objectAt(value);
    if (!object) return;
    // The success envelope: `meta` is on every success (its description says so), but the examples,
    // which validate against this schema, leave it out rather than repeat it fifty times.
    if (objectAt(objectAt(object.properties)?.meta)?.$ref === '#/components/schemas/Meta' && Array.isArray(object.required)) {
      object.required = (object.required as unknown[]).filter((name) => name !== 'meta');
    }
    // A reference that only adds a description (SearchItem's matched and relaxed): the generator also
    // copies the referenced object's closedness, which beside a $ref would forbid every property.
    if (typeof object.$ref === 'string' && object.additionalProperties === false && object.properties === undefined) delete object.additionalProperties;
    // A oneOf of envelopes whose `type` enums already tell them apart: the mapping would list them again.
    if (Array.isArray(object.oneOf) && objectAt(object.discriminator)?.mapping) delete object.discriminator;
    // Defaults, stated: no minimum length, an optional request body or parameter.
    if (object.minLength === 0) delete object.minLength;
    if (object.required === false) delete object.required;
    mergeNullable(object);
    Object.values(object).forEach(visit);
  };
  visit(document);
  // A schema property's example repeats what the operations' examples show in context.
  const dropExamples = (value: unknown): void => {
    const object = objectAt(value);
    if (!object) return;
    for (const property of valuesOf(object.properties).map(objectAt)) if (property) delete property.example;
    Object.values(object).forEach((child) => (Array.isArray(child) ? child.forEach(dropExamples) : dropExamples(child)));
  };
  dropExamples(objectAt(document.components)?.schemas);
}

/**
 * Text and id schemas, stated once and referenced: the text rules (no control or bidirectional
 * characters, tab and newline only in multi-line text) as `Text` and `MultilineText`, each use keeping
 * its own `maxLength` beside the reference; an inline id (a path parameter, a filter), currency or
 * country code as its component. A nullable text keeps its pattern inline: the reference would refuse null.
 */
function shareStringSchemas(document: JsonObject): void {
  const components = objectAt(document.components) ?? {};
  const schemas = objectAt(components.schemas) ?? {};
  const byPattern = new Map<string, string>([
    [TEXT_PATTERN_SINGLE_LINE, 'Text'],
    [TEXT_PATTERN_MULTI_LINE, 'MultilineText'],
  ]);
  for (const [name, schema] of Object.entries(schemas)) {
    const pattern = objectAt(schema)?.pattern;
    if (/(Id|Code)$/.test(name) && typeof pattern === 'string') byPattern.set(pattern, name);
  }
  // The longest text of each shared schema's uses: the bound the shared schema states for all of them.
  const uses = new Map<string, number>();
  const visit = (value: unknown, inComponent?: string): void => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item));
    const object = objectAt(value);
    if (!object) return;
    const name = typeof object.pattern === 'string' ? byPattern.get(object.pattern) : undefined;
    if (name && name !== inComponent && object.type === 'string' && object.$ref === undefined) {
      delete object.type;
      delete object.pattern;
      // An id's or a code's length is fixed: its component states it.
      if (/(Id|Code)$/.test(name)) delete object.maxLength;
      const rest = { ...object };
      for (const key of Object.keys(object)) delete object[key];
      Object.assign(object, { $ref: `#/components/schemas/${name}` }, rest);
      uses.set(name, Math.max(uses.get(name) ?? 0, typeof rest.maxLength === 'number' ? rest.maxLength : 0));
      return;
    }
    for (const [key, child] of Object.entries(object)) if (key !== 'example' && key !== 'examples') visit(child);
  };
  for (const [key, section] of Object.entries(document)) if (key !== 'components') visit(section);
  for (const [key, section] of Object.entries(components)) {
    if (key !== 'schemas') visit(section);
  }
  for (const [name, schema] of Object.entries(schemas)) visit(schema, name);
  const text = (pattern: string, maxLength: number | undefined, description: string) => ({ type: 'string', maxLength, pattern, description: `${description}; each use sets its maxLength` });
  if (uses.has('Text')) schemas.Text = text(TEXT_PATTERN_SINGLE_LINE, uses.get('Text'), 'One line, no control or bidirectional-control characters');
  if (uses.has('MultilineText')) schemas.MultilineText = text(TEXT_PATTERN_MULTI_LINE, uses.get('MultilineText'), 'Newlines and tabs allowed; no other control or bidirectional-control characters');
}

/** Every list's nextCursor is one schema, `NextCursor` (search's, longer, has its own description). */
function shareListCursor(document: JsonObject): void {
  const schemas = objectAt(objectAt(document.components)?.schemas) ?? {};
  const nextCursor = { type: ['string', 'null'], maxLength: LIST_CURSOR_MAX, pattern: '^[A-Za-z0-9_-]+$' };
  const visitPages = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visitPages);
    const object = objectAt(value);
    if (!object) return;
    const properties = objectAt(object.properties);
    const cursor = objectAt(properties?.nextCursor);
    const isListCursor = cursor && Object.keys(cursor).length === 3 && cursor.maxLength === nextCursor.maxLength && cursor.pattern === nextCursor.pattern && JSON.stringify(cursor.type) === JSON.stringify(nextCursor.type);
    if (properties && isListCursor) {
      properties.nextCursor = ref('schemas', 'NextCursor');
      schemas.NextCursor = { ...nextCursor, description: 'Pass as `cursor` for the next page; null on the last page' };
    }
    for (const [key, child] of Object.entries(object)) if (key !== 'example' && key !== 'examples') visitPages(child);
  };
  visitPages(document.paths);
}

/** A success envelope (`<Data>Envelope`) that one response uses is written in that response, not named. */
function inlineSingleUseEnvelopes(document: JsonObject): void {
  const schemas = objectAt(objectAt(document.components)?.schemas) ?? {};
  const uses = new Map<string, JsonObject[]>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    const object = objectAt(value);
    if (!object) return;
    const name = typeof object.$ref === 'string' ? object.$ref.replace('#/components/schemas/', '') : '';
    if (name.endsWith('Envelope') && Object.keys(object).length === 1) uses.set(name, [...(uses.get(name) ?? []), object]);
    for (const [key, child] of Object.entries(object)) if (key !== 'example' && key !== 'examples') visit(child);
  };
  visit(document);
  for (const [name, [use, ...more]] of uses) {
    if (!use || more.length > 0 || !schemas[name]) continue;
    delete use.$ref;
    Object.assign(use, schemas[name]);
    delete schemas[name];
  }
}

/** `anyOf: [{type: 'string', …}, {type: 'null'}]` → `type: ['string', 'null'], …`: the same schema, shorter. */
function mergeNullable(schema: JsonObject): void {
  const options = Array.isArray(schema.anyOf) ? (schema.anyOf as unknown[]).map(objectAt) : [];
  if (options.length !== 2) return;
  const nullIndex = options.findIndex((option) => option?.type === 'null' && Object.keys(option).length === 1);
  const other = options[1 - nullIndex];
  if (nullIndex < 0 || !other || typeof other.type !== 'string' || 'enum' in other || 'const' in other || '$ref' in other) return;
  if (Object.keys(other).some((key) => key in schema && key !== 'anyOf')) return;
  delete schema.anyOf;
  Object.assign(schema, other, { type: [other.type, 'null'] });
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

/**
 * An example that several operations show (the same session read and countered, the same order read
 * and shipped) is written once, in components.examples, and referenced.
 */
function shareRepeatedExamples(document: JsonObject): void {
  const uses = new Map<string, { name: string; mediaTypes: JsonObject[] }>();
  for (const item of valuesOf(document.paths)) {
    for (const operation of valuesOf(item).map(objectAt)) {
      const bodies: [string, unknown][] = [
        ['Request', objectAt(operation?.requestBody)?.content],
        ...valuesOf(operation?.responses).map((response): [string, unknown] => ['Response', objectAt(response)?.content]),
      ];
      for (const [kind, content] of bodies) {
        for (const mediaType of valuesOf(content).map(objectAt)) {
          if (mediaType?.example === undefined) continue;
          const key = JSON.stringify(mediaType.example);
          const data = objectAt(objectAt(mediaType.example)?.data);
          // The lists whose items another operation shows share one empty page, named for what it is.
          const isEmptyPage = Array.isArray(data?.items) && data.items.length === 0;
          const use = uses.get(key) ?? { name: isEmptyPage ? 'EmptyPage' : `${String(operation?.operationId)}${kind}`, mediaTypes: [] };
          use.mediaTypes.push(mediaType);
          uses.set(key, use);
        }
      }
    }
  }
  const components = objectAt(document.components) ?? {};
  for (const { name, mediaTypes } of uses.values()) {
    if (mediaTypes.length < 2) continue;
    components.examples = { ...objectAt(components.examples), [name]: { value: mediaTypes[0]?.example } };
    for (const mediaType of mediaTypes) {
      delete mediaType.example;
      mediaType.examples = { [name]: ref('examples', name) };
    }
  }
}

/** What each kind of id is and where an agent gets one. */
const ID_DESCRIPTIONS: Record<IdKind, string> = {
  agent: 'An agent id (agt_…), from registration: a buyerId or sellerId',
  product: 'A product id (prd_…), from search results',
  offer: 'An offer id (ofr_…), from search results (items[].offer.offerId)',
  negotiation: 'A negotiation session id (neg_…), from POST /v1/negotiate',
  order: 'An order id (ord_…), from POST /v1/create-order',
  audit: 'An audit entry id (aud_…)',
  feed: 'A feed id (feed_…), from POST /v1/seller/feeds',
  webhook: 'A webhook subscription id (whk_…)',
  event: 'An event id (evt_…), the same in every delivery of the event',
  delivery: 'A webhook delivery id (dlv_…)',
  request: 'A request id (req_…)',
  key: 'An API key id (key_…), from POST /v1/agents/me/keys (never the key itself)',
  rfq: 'A request for quotes id (rfq_…), from POST /v1/rfqs (buyers) or GET /v1/rfqs and the rfq.created event (sellers)',
  quote: 'A quote id (qte_…), from POST /v1/rfqs/{id}/quotes, or the RFQ’s quotes (buyers)',
};
const idDescriptions = new Map<z.core.$ZodType, string>((Object.keys(ID_DESCRIPTIONS) as IdKind[]).map((kind) => [idOf(kind), ID_DESCRIPTIONS[kind]]));

/**
 * Schemas made with `base.extend(…)` (a record with what one caller or one call adds), documented as
 * `allOf: [base, their own fields]` instead of repeating the base's fields.
 */
const EXTENSIONS = new Map<z.core.$ZodType, z.ZodMiniObject>([
  [AgentWithApiKey, Agent],
  [SellerOffer, Offer],
  [Offer, OfferCompact],
  [Product, ProductCompact],
  [ProductWithOffers, Product],
  [SellerProductWithOffers, Product],
  [FeedWithUpload, Feed],
  [DeliveryWithPayload, Delivery],
  [SearchIntentPage, SearchPage],
  [RestrictedKeyWithSecret, RestrictedKey],
  [OrderPreview, Order],
  [SearchItem, SearchItemBase],
  [SearchItemCompact, SearchItemBase],
]);

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

/**
 * What the document says about fields beyond their schemas. Kept here, at build time, rather than in
 * the schemas, which every function bundles: these words would otherwise ship in every Lambda.
 */
const FIELD_DESCRIPTIONS = new Map<z.core.$ZodType, string>([
  
  [Agent.shape.plan, 'Rate-limit plan (API description); set by an operator'],
  [Agent.shape.environment, 'test: sandbox (mk_test_ keys); live: production (mk_live_)'],
  [Agent.shape.apiKeyPrefix, 'First 12 characters of the current key'],
  [Meta, 'On every success; the examples leave it out'],
  [RequestId, 'Quote it when reporting a problem'],
  [ErrorBody.shape.error, 'What to fix, for people (branch on `code`)'],
  [ErrorBody.shape.code, 'Stable, machine-readable error code'],
  [ErrorBody.shape.status, 'The HTTP status, repeated'],
  [ErrorBody.shape.details, 'One per problem: validation errors, state conflicts'],
  [ErrorDetail.shape.path, 'Dot path of the field (`organization.country`, `events.1`), header or query parameter'],
  [ErrorDetail.shape.message, 'What to change in that field'],
  [AgentWithApiKey.shape.apiKey, 'Send as `Authorization: Bearer <apiKey>`; shown only here: store it'],
  [Offer.shape.minQuantity, 'Smallest quantity this offer sells'],
  [Offer.shape.priceTiers, 'Volume prices: the highest tier a quantity reaches applies'],
  [Product.shape.unit, 'What one unit is (each, box, kg…): quantities and unit prices count these'],
  [Product.shape.availableQuantity, 'Units in stock; an order takes its quantity'],
  [Product.shape.leadTimeDays, 'Days from order to shipment'],
  [Product.shape.shipsFrom, 'ISO 3166-1 alpha-2 country code, or null'],
  [Product.shape.sourceFeedId, 'The feed that last wrote it'],
  [ProductWithOffers.shape.offers, 'Its standing offer (a feed row makes one)'],
  [Feed.shape.sizeBytes, 'The file’s size in bytes; null until a presigned upload lands'],
  [Feed.shape.attempts, 'Processing runs so far (a retry adds one)'],
  [Feed.shape.failureReason, 'Why it failed: what to change in the file'],
  [SearchPage.shape.nextCursor, 'Pass as `cursor` with the same request for the next page; null on the last'],
]);

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
