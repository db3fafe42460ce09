// Request and response types of every operation, derived from the generated OpenAPI types by
// operationId only (never by component schema name), so a regeneration after the document's schemas
// are renamed or moved changes nothing here.
import type { operations as generatedOperations } from './generated/openapi.ts';

/** Every operation of the served document, by operationId. */
export type Operations = generatedOperations;
export type OperationId = keyof Operations;

type SuccessStatus = 200 | 201 | 202;
type Responses<O extends OperationId> = Operations[O] extends { responses: infer R } ? R : never;
type SuccessResponse<O extends OperationId> = Responses<O>[Extract<keyof Responses<O>, SuccessStatus>];

/** The JSON request body of an operation. */
export type RequestBody<O extends OperationId> = Operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters of an operation. */
export type QueryParams<O extends OperationId> = Operations[O] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** What the operation answers in `data` on success (the envelope's `meta` is on `lastResponse`). */
export type ResponseData<O extends OperationId> = SuccessResponse<O> extends { content: { 'application/json': { data: infer D } } } ? D : never;

/** One element of a list operation's `items`. */
export type ListItem<O extends OperationId> = ResponseData<O> extends { items: (infer I)[] } ? I : never;

/** The error body every failure carries. */
export type ErrorBody = Responses<'getMyAgent'>[Extract<keyof Responses<'getMyAgent'>, 401>] extends { content: { 'application/json': infer E } } ? E : never;
/** The error codes of the API's error table. */
export type ErrorCode = ErrorBody extends { code: infer C } ? C : never;
/** One problem with the request, by dot path (`organization.country`, `events.1`). */
export interface ErrorDetail {
  path: string;
  message: string;
}

// Names for the records, as the operations that return them define them.
export type Agent = ResponseData<'getMyAgent'>;
export type AgentWithApiKey = ResponseData<'registerAgent'>;
export type WebhookSubscription = ResponseData<'getWebhook'>;
export type WebhookDelivery = ListItem<'listWebhookDeliveries'>;
export type WebhookDeliveryWithPayload = ResponseData<'getWebhookDelivery'>;
export type Feed = ResponseData<'getFeed'>;
export type FeedWithUpload = Extract<ResponseData<'uploadFeed'>, { uploadUrl: string }>;
export type FeedTemplate = ResponseData<'getCsvFeedTemplate'>;
export type SellerProduct = ListItem<'listSellerProducts'>;
export type Product = ResponseData<'getProduct'>;
export type Offer = ResponseData<'getOffer'>;
/** A search item as searches return it by default (`fields: "full"`). */
export type SearchItem = Extract<ListItem<'search'>, { product: { description: unknown } }>;
/** A search item with `fields: "compact"`: without descriptions, image URLs, timestamps and repeated ids. */
export type SearchItemCompact = Exclude<ListItem<'search'>, SearchItem>;
/** A search page whose items are as `fields` asks: compact for `"compact"`, whole otherwise. */
export type SearchPageOf<D extends { items: unknown[] }, F> = Omit<D, 'items'> & { items: (F extends 'compact' ? SearchItemCompact : SearchItem)[] };
export type NegotiationSession = ResponseData<'getNegotiation'>;
export type Order = ResponseData<'getOrder'>;
/** What `orders.preview` answers: the order as it would be created, and the key's limits left. */
export type OrderPreview = Extract<ResponseData<'createOrder'>, { dryRun: true }>;
/** An order's approval by the main key (an order placed over its key's `approvalAbove`). */
export type OrderApproval = NonNullable<Order['approval']>;
/** A restricted key as the owner sees it (never its secret). */
export type RestrictedKey = ResponseData<'revokeApiKey'>;
/** A new restricted key, with its secret `apiKey` (shown once). */
export type RestrictedKeyWithSecret = ResponseData<'createApiKey'>;
/** An item of the agent's keys: its main key (`kind: 'main'`) or a restricted key. */
export type ApiKeyListItem = ListItem<'listApiKeys'>;
/** A restricted key's spending limits (money in one currency, minor units). */
export type KeyLimits = NonNullable<RequestBody<'createApiKey'>['limits']>;
/** What a restricted key may do (`write` implies `read`). */
export type Scope = RequestBody<'createApiKey'>['scopes'][number];
export type AuditEntry = ListItem<'getOrderAudit'>;
/** A request for quotes, as its buyer or a seller it reached sees it. */
export type Rfq = ResponseData<'getRfq'>;
/** A seller's sealed quote on a request for quotes. */
export type Quote = ResponseData<'submitQuote'>;
/** An event as the events feed lists it and as webhooks deliver it: `{id, type, timestamp, data}`. */
export type MarketplaceEvent = ResponseData<'getEvent'>;
/** One request of the caller's request log; `LoggedRequestDetail` adds the error body of an error. */
export type LoggedRequest = ListItem<'listRequests'>;
export type LoggedRequestDetail = ResponseData<'getRequest'>;
/** Event names a webhook subscription may name (`*` is every event). */
export type EventName = RequestBody<'createWebhook'>['events'][number];
