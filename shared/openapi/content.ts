// What the OpenAPI document and llms.txt say beyond the route rows: the API's title and publisher,
// each tag's purpose, the headers and parameters every operation shares, the error examples, the
// webhooks' headers and events, what each kind of id and some fields are, and the words about a row's
// callers, key scope and errors. Content only: shared/openapi/document.ts generates the document from
// the route index and these, shared/openapi/size-passes.ts keeps it small. Built at synth and local
// start, never in a function.
import * as z from '../schemas/zod.ts';
import type { oas31 } from 'zod-openapi';
import { statusOf, type ErrorCode } from '../http/error-codes.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN_SOURCE } from '../http/idempotency-key.ts';
import { UNLIMITED } from '../http/rate-limit-headers.ts';
import { ErrorBody, ErrorDetail, Meta, RequestId } from '../http/response-schemas.ts';
import { errorCodesFor, type RouteDefinition, type RouteTag } from '../http/route-table.ts';
import { EXAMPLE_IDS } from '../schemas/examples.ts';
import type { IdKind } from '../ids.ts';
import { Agent, AgentWithApiKey } from '../schemas/agents.ts';
import { RestrictedKey, RestrictedKeyWithSecret } from '../schemas/keys.ts';
import { LoggedRequest, LoggedRequestDetail } from '../schemas/requests.ts';
import { Order, OrderPreview } from '../schemas/trade.ts';
import { Feed, FeedWithUpload, Offer, OfferCompact, Product, ProductCompact, ProductWithOffers, SellerOffer, SellerProductWithOffers } from '../schemas/catalog.ts';
import { idOf } from '../schemas/common.ts';
import { SearchIntentPage, SearchItem, SearchItemBase, SearchItemCompact, SearchPage } from '../schemas/search-results.ts';
import { Delivery, DeliveryWithPayload } from '../schemas/webhooks.ts';
import type { DeliveredEventType } from '../schemas/event-data.ts';
import { EVENT_ENVELOPES } from '../schemas/events.ts';
import { PACKAGE_VERSION } from './package-version.ts';

export const API_TITLE = 'Agent Marketplace API';

/** The document's version: the marketplace's (package.json), which the reference page shows beside the title. */
export const API_VERSION = PACKAGE_VERSION;

/** Every tag with what its operations are for (a route's tag must be one of these). */
export const TAG_DESCRIPTIONS: Record<RouteTag, string> = {
  Agents: 'Register a buyer or seller agent, read and change its profile, rotate its key.',
  Search: 'Find offers by a plain-language intent or filters: where a buyer starts.',
  Catalog: 'Products and offers by id; a seller’s own products with their private prices.',
  'Seller feeds': 'Sellers load their catalog as CSV or JSON feeds, processed asynchronously.',
  Negotiation: 'Buyer and seller agree on unit price and quantity, in turns.',
  Orders: 'Orders placed from accepted negotiations, their life cycle and audit trail.',
  'Requests for quotes': 'A buyer asks many sellers at once; each sends one sealed quote; the buyer awards one, which becomes an accepted negotiation to order from.',
  Webhooks: 'Signed POSTs of events to your URL (see `webhooks`), their delivery log and retries.',
  Events: 'The events an agent is a party to, as a feed to read or follow.',
  Requests: 'The caller’s own API requests of the last 7 days: status, error code, duration, key and Idempotency-Key; the error body of failures.',
  'Test helpers': 'Sandbox only (`mk_test_` keys; absent from production): the house counterparties act on demand, orders and negotiations move on, sample events fire.',
  Operations: 'The documents that describe this API, and the readiness probe.',
  MCP: 'This API as Model Context Protocol tools: point an MCP client at `/mcp` with your key.',
};

/**
 * Who publishes the API: the team, without an address until the marketplace has a public site and
 * mailbox (no placeholder an agent or a person could mistake for one); there is no license to grant:
 * the API is proprietary (docs/decisions/document-publisher-named.md).
 */
export const PUBLISHER = {
  contact: { name: 'Agent Marketplace platform team' },
  license: { name: 'Proprietary: all rights reserved' },
};

/**
 * `servers` of the document as built: the URL of a deployed stage's API (its ApiUrl output). The
 * function that serves the document replaces it with the origin the request came to, so an agent
 * always sees the stage it talks to (locally the runtime's http://localhost:…).
 */
export const STAGE_SERVER = {
  url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
  description: 'A deployed stage (sandbox or production): the stack’s ApiUrl output',
  variables: {
    apiId: { default: 'abcdef1234', description: 'The HTTP API’s id' },
    region: { default: 'eu-central-1', description: 'The AWS region of the stack' },
  },
  'x-internal': false,
};

/** Response headers, each documented once. */
export const HEADERS: Record<string, oas31.HeaderObject> = {
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
export const PARAMETERS: Record<string, oas31.ParameterObject> = {
  'Idempotency-Key': {
    in: 'header',
    name: 'Idempotency-Key',
    required: false,
    description: 'Any unique printable ASCII (a UUID, your order reference): a retry with the same key and request within 24 h replays the first response instead of acting twice',
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN_SOURCE, example: 'po-2026-0042-attempt' },
  },
};

/**
 * Error examples where they show more than the Error schema does: `details`, per field or with the
 * state that refused the change. The other error bodies differ only in their message.
 */
export const ERROR_EXAMPLES: Partial<Record<ErrorCode, { error: string; details: { path: string; message: string }[] }>> = {
  conflict: { error: 'The session is accepted; only an open session can be countered', details: [{ path: 'status', message: 'accepted' }] },
  'validation/invalid': {
    error: 'Request validation failed — quantity: Must be at least 10 (the offer’s minimum)',
    details: [{ path: 'quantity', message: 'Must be at least 10 (the offer’s minimum)' }],
  },
};

export const UPLOAD_SCHEMAS = {
  'text/csv': z.annotated(z.string().check(z.maxLength(5 * 1024 * 1024)), { id: 'CsvFeedFile', description: 'A header row, then one row per product (prices in major units)' }),
  'multipart/form-data': z.annotated(z.object({
      file: z.annotated(z.string().check(z.maxLength(5 * 1024 * 1024)), { format: 'binary', description: 'The feed file (CSV or JSON)' }),
      format: z.annotated(z.optional(z.enum(['csv', 'json'])), { description: 'Overrides the format the file name implies' }),
    }), { id: 'MultipartFeedUpload' }),
} as const;

/** Routes of the sandbox alone say so: a production stack neither serves nor documents them. */
export function sandboxOnlyNote(route: RouteDefinition): string {
  return route.stages && !route.stages.includes('live') ? '\n\n**Sandbox only** (`mk_test_`, `npm start`): production has no such endpoint.' : '';
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

/** Webhook request headers: what a receiver checks. */
export const WEBHOOK_PARAMETERS: Record<string, oas31.ParameterObject> = {
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
  'negotiation.started': 'A buyer opened a session.',
  'negotiation.offer': 'negotiation.counter, for subscriptions naming only this alias.',
  'negotiation.counter': 'A party (or the seller’s policy) countered.',
  'negotiation.accepted': 'The terms were accepted: the buyer may order.',
  'negotiation.rejected': 'A party rejected the session, or it expired (`reason`).',
  'feed.processed': 'feed.completed, for subscriptions naming only this alias.',
  'feed.completed': 'A feed was processed (rows may have failed: see its counts); to its seller.',
  'feed.failed': 'A feed could not be processed (`failureReason`); to its seller.',
  'webhook.disabled': 'A subscription was disabled after 5 days of failures.',
  'rfq.created': 'A buyer asks for quotes on something this seller sells (or invited it): quote with POST /v1/rfqs/{rfqId}/quotes before `closesAt`. To that seller only: never who else was asked.',
  'rfq.quote_received': 'A seller quoted on the buyer’s request for quotes, or replaced its quote. To the buyer only.',
  'rfq.awarded': 'The buyer awarded a quote: `sessionId` is an accepted negotiation session at its terms, ready for POST /v1/create-order. To the buyer and the winning seller.',
  'rfq.closed': 'A request for quotes takes no more quotes: to each seller it was sent to when another seller’s quote is awarded or the buyer cancels (`status`), and to the buyer when `closesAt` passes.',
  'webhook.test': 'Sent by `POST /v1/webhooks/{id}/test` to that subscription only.',
};

/**
 * The notices about a subscription itself (webhook.test, webhook.disabled) are one POST whose body is
 * either envelope, as a family's is one: the signature headers and answers are said once for both.
 */
const WEBHOOK_NOTICE_TYPES = ['webhook.test', 'webhook.disabled'] as const satisfies readonly DeliveredEventType[];
const WEBHOOK_NOTICE_ENVELOPE = z.annotated(z.union(WEBHOOK_NOTICE_TYPES.map((type) => EVENT_ENVELOPES[type]) as [z.ZodMiniObject, z.ZodMiniObject]), { id: 'WebhookNoticeEvent' });

export const WEBHOOK_EVENTS: Record<DeliveredEventType, WebhookEventDocumentation> = Object.fromEntries(
  (Object.keys(WEBHOOK_EVENT_DESCRIPTIONS) as DeliveredEventType[]).map((type): [DeliveredEventType, WebhookEventDocumentation] => [
    type,
    { description: WEBHOOK_EVENT_DESCRIPTIONS[type], envelope: (WEBHOOK_NOTICE_TYPES as readonly string[]).includes(type) ? WEBHOOK_NOTICE_ENVELOPE : EVENT_ENVELOPES[type] },
  ]),
) as Record<DeliveredEventType, WebhookEventDocumentation>;

export const WEBHOOK_RESPONSES = {
  WebhookAcknowledged: { description: 'Any 2xx within 10 s acknowledges it; the body is ignored (its first 1 KB is kept)' },
  WebhookRefused: { description: 'Anything else, a timeout or a redirect: retried on the schedule (API description), then failed' },
};

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

export const idDescriptions = new Map<z.core.$ZodType, string>((Object.keys(ID_DESCRIPTIONS) as IdKind[]).map((kind) => [idOf(kind), ID_DESCRIPTIONS[kind]]));

/**
 * Schemas made with `base.extend(…)` (a record with what one caller or one call adds), documented as
 * `allOf: [base, their own fields]` instead of repeating the base's fields.
 */
export const EXTENSIONS = new Map<z.core.$ZodType, z.ZodMiniObject>([
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
  [LoggedRequestDetail, LoggedRequest],
  [SearchItem, SearchItemBase],
  [SearchItemCompact, SearchItemBase],
]);

/**
 * What the document says about fields beyond their schemas. Kept here, at build time, rather than in
 * the schemas, which every function bundles: these words would otherwise ship in every Lambda.
 */
export const FIELD_DESCRIPTIONS = new Map<z.core.$ZodType, string>([
  
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
