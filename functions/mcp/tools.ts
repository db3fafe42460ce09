// THE table of MCP tools: every tool by its exact name, the route rows it calls (its roles are theirs),
// its arguments and result (from those routes' schemas), its annotations, what a language model reads
// about it, and its call through the SDK. A tool is a client of the public API: each call is one SDK
// call with the agent's key, authenticated, rate-limited, validated and idempotent as over HTTP.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from '../../shared/schemas/zod.ts';
import { withDocument, type RouteWithDocument } from '../../shared/http/route-table.ts';
import type { Role } from '../../shared/schemas/agents.ts';
import { FeedFormat, InlineJsonFeedRequest, UploadFeedQuery } from '../../shared/schemas/catalog.ts';
import { FeedProductRow } from '../../shared/schemas/feed-rows.ts';
import { SearchIntentRequest, SearchRequest } from '../../shared/schemas/search.ts';
import type { FieldProblem } from '../../shared/failures.ts';
import { zodProblems } from '../../shared/schemas/problems.ts';
import type { FeedUpload, Marketplace, QueryParams, RequestBody, RequestOptions } from '../../sdk/typescript/src/index.ts';
import * as getMyAgentModule from '../agents/get-me.route.ts';
import * as searchIntentModule from '../search-intent/run.route.ts';
import * as searchModule from '../search/run.route.ts';
import * as getProductModule from '../products/get.route.ts';
import * as getOfferModule from '../offers/get.route.ts';
import * as listEventsModule from '../events/list.route.ts';
import * as listNegotiationsModule from '../negotiations/list.route.ts';
import * as getNegotiationModule from '../negotiations/get.route.ts';
import * as startNegotiationModule from '../negotiate/start.route.ts';
import * as counterNegotiationModule from '../negotiate/counter.route.ts';
import * as acceptNegotiationModule from '../negotiate/accept.route.ts';
import * as rejectNegotiationModule from '../negotiate/reject.route.ts';
import * as createOrderModule from '../create-order/run.route.ts';
import * as listOrdersModule from '../orders/list.route.ts';
import * as getOrderModule from '../orders/get.route.ts';
import * as getOrderAuditModule from '../orders/audit.route.ts';
import * as cancelOrderModule from '../orders/cancel.route.ts';
import * as confirmOrderModule from '../orders/confirm.route.ts';
import * as shipOrderModule from '../orders/ship.route.ts';
import * as deliverOrderModule from '../orders/deliver.route.ts';
import * as completeOrderModule from '../orders/complete.route.ts';
import * as createWebhookModule from '../webhooks/create.route.ts';
import * as listWebhooksModule from '../webhooks/list.route.ts';
import * as deleteWebhookModule from '../webhooks/delete.route.ts';
import * as listWebhookDeliveriesModule from '../webhooks/list-deliveries.route.ts';
import * as getCsvFeedTemplateModule from '../seller-templates/get-csv.route.ts';
import * as getJsonFeedTemplateModule from '../seller-templates/get-json.route.ts';
import * as uploadFeedModule from '../seller-feeds/create.route.ts';
import * as getFeedModule from '../seller-feeds/get.route.ts';
import * as listFeedsModule from '../seller-feeds/list.route.ts';
import * as retryFeedModule from '../seller-feeds/retry.route.ts';
import * as listSellerProductsModule from '../seller-products/list.route.ts';
import {
  IdempotencyKeyArgument,
  argumentSchema,
  argumentsSchema,
  keysOf,
  parseIdempotencyKey,
  routeInput,
  type ArgumentsSchema,
  type JsonSchema,
  type Parsed,
  type RouteArguments,
  type ToolInput,
  toolInput,
} from './tool-schemas.ts';

// Each route's row with its document (its response schema: the tool's result).
const getMyAgent = withDocument(getMyAgentModule);
const searchIntent = withDocument(searchIntentModule);
const search = withDocument(searchModule);
const getProduct = withDocument(getProductModule);
const getOffer = withDocument(getOfferModule);
const listEvents = withDocument(listEventsModule);
const listNegotiations = withDocument(listNegotiationsModule);
const getNegotiation = withDocument(getNegotiationModule);
const startNegotiation = withDocument(startNegotiationModule);
const counterNegotiation = withDocument(counterNegotiationModule);
const acceptNegotiation = withDocument(acceptNegotiationModule);
const rejectNegotiation = withDocument(rejectNegotiationModule);
const createOrder = withDocument(createOrderModule);
const listOrders = withDocument(listOrdersModule);
const getOrder = withDocument(getOrderModule);
const getOrderAudit = withDocument(getOrderAuditModule);
const cancelOrder = withDocument(cancelOrderModule);
const confirmOrder = withDocument(confirmOrderModule);
const shipOrder = withDocument(shipOrderModule);
const deliverOrder = withDocument(deliverOrderModule);
const completeOrder = withDocument(completeOrderModule);
const createWebhook = withDocument(createWebhookModule);
const listWebhooks = withDocument(listWebhooksModule);
const deleteWebhook = withDocument(deleteWebhookModule);
const listWebhookDeliveries = withDocument(listWebhookDeliveriesModule);
const getCsvFeedTemplate = withDocument(getCsvFeedTemplateModule);
const getJsonFeedTemplate = withDocument(getJsonFeedTemplateModule);
const uploadFeed = withDocument(uploadFeedModule);
const getFeed = withDocument(getFeedModule);
const listFeeds = withDocument(listFeedsModule);
const retryFeed = withDocument(retryFeedModule);
const listSellerProducts = withDocument(listSellerProductsModule);

export interface ToolDefinition<T> {
  /** The tool's name, exactly as agents call it. */
  name: string;
  title: string;
  /** For a language model: when to use it, units, what usually comes next. */
  description: string;
  /** The route rows it calls; the tool is listed for the roles all of them allow. */
  routes: readonly RouteWithDocument[];
  input: ToolInput<T>;
  /** The schema of the result (the route's `data`); MCP clients check `structuredContent` against it. */
  output: z.ZodMiniObject;
  annotations: ToolAnnotations;
  call(marketplace: Marketplace, args: T): Promise<unknown>;
}

/** A row of the table, its argument type erased (each row is type-checked where it is defined). */
export type Tool = ToolDefinition<unknown>;

/** Type-checks a row against its own argument type; the table holds them side by side. */
function defineTool<T>(definition: ToolDefinition<T>): Tool {
  return definition;
}

/** The roles that may call every route of the tool. */
export function rolesOf(tool: Tool): Role[] {
  return (['buyer', 'seller'] as const).filter((role) => tool.routes.every((route) => route.roles.includes(role)));
}

const isObject = (schema: z.core.$ZodType): schema is z.ZodMiniObject => schema instanceof z.ZodMiniObject;
const isUnion = (schema: z.core.$ZodType): schema is z.ZodMiniUnion => schema instanceof z.ZodMiniUnion;
const isArray = (schema: z.core.$ZodType): schema is z.ZodMiniArray => schema instanceof z.ZodMiniArray;

/**
 * The route's `data` schema as one object, as MCP requires of a tool's result: a union of objects (a
 * product as its seller or anyone else sees it) becomes one object with the fields of either.
 */
function dataOf(route: RouteWithDocument): z.ZodMiniObject {
  const schema = route.response.schema;
  // A copy without the component name, so that the JSON Schema's root is the object itself (MCP
  // requires `type: "object"` there), not a reference to a named definition.
  if (isObject(schema)) return z.object(schema.shape);
  if (isUnion(schema) && schema.def.options.every(isObject)) {
    const [first, ...rest] = schema.def.options;
    return rest.reduce(eitherObject, first as z.ZodMiniObject);
  }
  throw new Error(`${route.operationId} answers ${schema.def.type}, which a tool result cannot be`);
}

/** Either object's fields: one only one of them has is optional; one they type differently is either type. */
function eitherObject(first: z.ZodMiniObject, second: z.ZodMiniObject): z.ZodMiniObject {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name of new Set([...Object.keys(first.shape), ...Object.keys(second.shape)])) {
    const a = first.shape[name] as z.ZodMiniType | undefined;
    const b = second.shape[name] as z.ZodMiniType | undefined;
    if (a && b) shape[name] = a === b ? a : eitherField(a, b);
    else shape[name] = z.optional((a ?? b)!);
  }
  return z.object(shape);
}

/** Two types of one field: arrays of either item, objects merged, anything else a union. */
function eitherField(a: z.ZodMiniType, b: z.ZodMiniType): z.ZodMiniType {
  if (isArray(a) && isArray(b)) return z.array(eitherField(a.def.element as z.ZodMiniType, b.def.element as z.ZodMiniType));
  if (isObject(a) && isObject(b)) return eitherObject(a, b);
  return z.union([a, b]);
}

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** A change; `idempotent` when calling again with the same arguments changes nothing more (the record's state refuses a repeat). */
const change = (options: { destructive?: boolean; idempotent: boolean }): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: options.destructive ?? false,
  idempotentHint: options.idempotent,
  openWorldHint: false,
});

const options = (args: { idempotencyKey: string | undefined }): RequestOptions | undefined =>
  args.idempotencyKey === undefined ? undefined : { idempotencyKey: args.idempotencyKey };

/** The first page of a list (`{items, nextCursor}`, and an intent's interpretation); `cursor: nextCursor` for the next. */
const firstPage = async <T>(page: PromiseLike<T>): Promise<T> => await page;

const id = (args: RouteArguments, name = 'id') => args.params[name] as string;

// Money and lists, said once for every description that needs it.
const MONEY = 'Prices are integers in the minor unit of their currency (cents for USD and EUR, yen for JPY): 1150 USD is $11.50.';
const PAGED = 'Returns {items, nextCursor}; call again with cursor = nextCursor for more (nextCursor null: no more).';

// search_products: a plain-language intent (POST /v1/search-intent) or a structured search (POST /v1/search).

type SearchArguments = { mode: 'intent'; body: RequestBody<'searchIntent'> } | { mode: 'query'; body: RequestBody<'search'> };

const STRUCTURED_SEARCH_FIELDS = ['query', 'filters', 'sort'] as const;

function propertyOf(schema: z.ZodMiniType, name: string): JsonSchema {
  const property = (argumentSchema(schema).properties as Record<string, JsonSchema> | undefined)?.[name];
  if (!property) throw new Error(`No argument ${name}`);
  return property;
}

const searchInput: ToolInput<SearchArguments> = toolInput(
  () => {
    const structured = argumentsSchema([SearchRequest]);
    return {
      ...structured,
      properties: {
        intent: { ...propertyOf(SearchIntentRequest, 'intent'), description: 'What you need in plain language, e.g. "500 nitrile gloves under 0.15 EUR each from Germany within 10 days". Use either intent, or query with filters and sort' },
        ...structured.properties,
      },
    } satisfies ArgumentsSchema;
  },
  (args): Parsed<SearchArguments> => {
    const check = <S extends z.ZodMiniType>(schema: S) => schema.safeParse(args);
    if ('intent' in args) {
      const mixed = STRUCTURED_SEARCH_FIELDS.filter((name) => name in args);
      if (mixed.length > 0) return { ok: false, problems: mixed.map((name) => ({ path: name, message: 'Send either intent (plain language) or query, filters and sort (structured), not both' })) };
      const parsed = check(SearchIntentRequest);
      return parsed.success ? { ok: true, value: { mode: 'intent', body: args as RequestBody<'searchIntent'> } } : { ok: false, problems: problemsOf(parsed.error) };
    }
    const parsed = check(SearchRequest);
    return parsed.success ? { ok: true, value: { mode: 'query', body: args } } : { ok: false, problems: problemsOf(parsed.error) };
  },
);

// upload_feed and retry_feed: the feed file inline, as CSV text or as JSON product rows.

interface FeedFileArguments {
  upload: { csv: string; filename?: string } | { products: unknown[]; filename?: string } | undefined;
  idempotencyKey: string | undefined;
}

const CsvText = z.string('Must be the CSV file’s text').check(z.minLength(1, 'Send the CSV file’s text: a header row, then one row per product'));

/** The names of the inline feed arguments, as feedFileProperties describes them. */
const FEED_FILE_ARGUMENTS = ['csv', 'products', 'filename'] as const;

/** The JSON Schema of the inline feed arguments: `csv` (text) or `products` (JSON rows, described by the feed row schema). */
function feedFileProperties(): Record<(typeof FEED_FILE_ARGUMENTS)[number], JsonSchema> {
  const products = propertyOf(InlineJsonFeedRequest, 'products');
  return {
    csv: { ...argumentSchema(CsvText), description: 'The feed as CSV text (the header row from get_feed_template, then one row per product; prices as decimals in major units, e.g. 12.50 with a currency column). Use csv or products' },
    products: { ...products, items: argumentSchema(FeedProductRow), description: 'The feed as JSON product rows (prices as Money objects in minor units: {"amount": 1250, "currency": "EUR"}). Use csv or products' },
    filename: { ...propertyOf(UploadFeedQuery, 'filename'), description: 'A name for the file, shown on the feed' },
  };
}

/** The check of the inline feed arguments (required: one of csv and products must be sent). */
function feedFileArguments(required: boolean): { parse: (args: Record<string, unknown>) => Parsed<FeedFileArguments['upload']> } {
  return {
    parse(args) {
      const problems: FieldProblem[] = [];
      const has = (name: string) => args[name] !== undefined;
      if (has('csv') && has('products')) return { ok: false, problems: [{ path: 'products', message: 'Send either csv or products, not both' }] };
      if (!has('csv') && !has('products')) {
        return required ? { ok: false, problems: [{ path: 'csv', message: 'Required: the feed as csv (text) or products (JSON rows)' }] } : { ok: true, value: undefined };
      }
      const filename = args.filename as string | undefined;
      if (has('csv')) {
        const csv = CsvText.safeParse(args.csv);
        if (!csv.success) problems.push(...problemsOf(csv.error, ['csv']));
        const query = UploadFeedQuery.safeParse(filename === undefined ? {} : { filename });
        if (!query.success) problems.push(...problemsOf(query.error));
        return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { csv: args.csv as string, ...(filename === undefined ? {} : { filename }) } };
      }
      const body = InlineJsonFeedRequest.safeParse({ products: args.products, ...(filename === undefined ? {} : { filename }) });
      return body.success ? { ok: true, value: { products: args.products as unknown[], ...(filename === undefined ? {} : { filename }) } } : { ok: false, problems: problemsOf(body.error) };
    },
  };
}

function feedFileInput(options: { params?: z.ZodMiniObject; required: boolean }): ToolInput<FeedFileArguments & { id?: string }> {
  const file = feedFileArguments(options.required);
  const params = options.params;
  const known = new Set<string>([...FEED_FILE_ARGUMENTS, 'idempotencyKey', ...keysOf(params)]);
  return toolInput(
    () => {
      const paramSchema = params ? argumentsSchema([params]) : undefined;
      return {
        type: 'object',
        properties: { ...(paramSchema?.properties ?? {}), ...feedFileProperties(), ...IdempotencyKeyArgument },
        ...(paramSchema?.required ? { required: paramSchema.required } : {}),
        additionalProperties: false,
      };
    },
    (args) => {
      const problems: FieldProblem[] = Object.keys(args).filter((name) => !known.has(name)).map((name) => ({ path: name, message: 'Unknown field; remove it' }));
      let feedId: string | undefined;
      if (params) {
        const parsed = params.safeParse({ id: args.id });
        if (parsed.success) feedId = args.id as string;
        else problems.push(...problemsOf(parsed.error));
      }
      problems.push(...parseIdempotencyKey(args.idempotencyKey));
      const upload = file.parse(args);
      if (!upload.ok) problems.push(...upload.problems);
      if (problems.length > 0 || !upload.ok) return { ok: false, problems };
      return { ok: true, value: { upload: upload.value, idempotencyKey: args.idempotencyKey as string | undefined, ...(feedId ? { id: feedId } : {}) } };
    },
  );
}

// get_feed_template: the CSV or the JSON template.

const templateInput: ToolInput<{ format: 'csv' | 'json' }> = (() => {
  const Arguments = z.strictObject({ format: z.annotated(z._default(FeedFormat, 'csv'), { description: 'csv (default) or json' }) });
  return toolInput(
    () => argumentsSchema([Arguments]),
    (args) => {
      const parsed = Arguments.safeParse(args);
      return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: problemsOf(parsed.error) };
    },
  );
})();

function problemsOf(error: z.core.$ZodError, prefix: PropertyKey[] = []): FieldProblem[] {
  return zodProblems(error.issues, prefix);
}

/** Every tool, in the order tools/list shows them: everyone's, then the buyer's, then the seller's. */
export const TOOLS: readonly Tool[] = [
  defineTool({
    name: 'get_profile',
    title: 'Your agent profile',
    description: 'Your own agent: agentId, role (buyer or seller: it decides which tools you have), name, organization, contact e-mail and plan (free: 60 requests a minute and 1,000 a day; every tool call counts). Call it first when you do not know your role.',
    routes: [getMyAgent],
    input: routeInput(getMyAgent),
    output: dataOf(getMyAgent),
    annotations: READ,
    call: (mk) => mk.agents.me(),
  }),
  defineTool({
    name: 'search_products',
    title: 'Search products',
    description: `Find products and their standing offers. Either say what you need in plain language with intent ("500 nitrile gloves under 0.15 EUR each from Germany within 10 days": quantity, price ceiling, origin and lead time are read into filters, and the answer's interpretation says what was understood), or search structurally with query (words), filters (category, brand, sellerId, minPrice/maxPrice per unit with currency, minAvailableQuantity, shipsFrom, maxLeadTimeDays, attributes) and sort. Each item is {product, offer, score}. ${MONEY} ${PAGED} Next: get_offer or get_product for details; a buyer opens a negotiation with start_negotiation on the offer's offerId.`,
    routes: [searchIntent, search],
    input: searchInput,
    output: eitherObject(dataOf(searchIntent), dataOf(search)),
    annotations: READ,
    // A search changes nothing: no Idempotency-Key, so that the API stores no answer for it.
    call: (mk, args) => firstPage(args.mode === 'intent' ? mk.search.intent(args.body, { idempotencyKey: null }) : mk.search.query(args.body, { idempotencyKey: null })),
  }),
  defineTool({
    name: 'get_product',
    title: 'Get a product',
    description: `One product (prd_…) with its offers: title, description, category, brand, attributes, unit, list price, availableQuantity, minOrderQuantity, leadTimeDays, shipsFrom. ${MONEY}`,
    routes: [getProduct],
    input: routeInput(getProduct),
    output: dataOf(getProduct),
    annotations: READ,
    call: (mk, args) => mk.products.get(id(args)),
  }),
  defineTool({
    name: 'get_offer',
    title: 'Get an offer',
    description: `One offer (ofr_…): unitPrice, minQuantity, priceTiers (a lower unit price from a quantity on), negotiable, validUntil, status. ${MONEY} Next (buyers): start_negotiation with its offerId.`,
    routes: [getOffer],
    input: routeInput(getOffer),
    output: dataOf(getOffer),
    annotations: READ,
    call: (mk, args) => mk.offers.get(id(args)),
  }),
  defineTool({
    name: 'list_events',
    title: 'List or follow your events',
    description: `What happened to your negotiations, orders and feeds, as {id, type, timestamp, data} (order.created, order.confirmed, order.shipped, negotiation.counter, feed.completed, …). Without after: newest first. To follow along: pass after = the id of the last event you handled and waitSeconds (up to 20) — the call returns as soon as something new happens (oldest first), or empty when the wait is over; then call again with after = the last id you received. ${PAGED}`,
    routes: [listEvents],
    input: routeInput(listEvents),
    output: dataOf(listEvents),
    annotations: READ,
    call: (mk, args) => firstPage(mk.events.list(args.query as QueryParams<'listEvents'>)),
  }),
  defineTool({
    name: 'list_negotiations',
    title: 'List your negotiations',
    description: `Your negotiation sessions, newest first: open ones unless you pass status (accepted, rejected, expired, ordered). Each says whose turn it is (turn) and the terms on the table (quantity, unitPrice). ${MONEY} ${PAGED}`,
    routes: [listNegotiations],
    input: routeInput(listNegotiations),
    output: dataOf(listNegotiations),
    annotations: READ,
    call: (mk, args) => firstPage(mk.negotiations.list(args.query as QueryParams<'listNegotiations'>)),
  }),
  defineTool({
    name: 'get_negotiation',
    title: 'Get a negotiation',
    description: `One negotiation session (neg_…): status, turn (buyer or seller: who must answer), the terms on the table (quantity, unitPrice), round of maxRounds (20), every move in history, and expiresAt (72 h after the last move). ${MONEY} Next, when it is your turn: counter_offer, accept_terms or reject_negotiation.`,
    routes: [getNegotiation],
    input: routeInput(getNegotiation),
    output: dataOf(getNegotiation),
    annotations: READ,
    call: (mk, args) => mk.negotiations.get(id(args, 'sessionId')),
  }),
  defineTool({
    name: 'counter_offer',
    title: 'Counter-offer',
    description: `Propose new terms in a negotiation when it is your turn: unitPrice (and optionally a different quantity and a message). The turn passes to the other party; a seller's automatic policy may answer at once (read turn and history in the result). At most 20 proposals per session. ${MONEY} Next: wait for the answer (list_events, or get_negotiation), then counter again, accept_terms or reject_negotiation.`,
    routes: [counterNegotiation],
    input: routeInput(counterNegotiation),
    output: dataOf(counterNegotiation),
    annotations: change({ idempotent: false }),
    call: (mk, args) => mk.negotiations.counter(id(args, 'sessionId'), args.body as RequestBody<'counterNegotiation'>, options(args)),
  }),
  defineTool({
    name: 'accept_terms',
    title: 'Accept the terms',
    description: `Accept the other party's proposal on the table (only when it is your turn: you accept their terms, never your own). The session becomes accepted at its quantity and unitPrice. ${MONEY} Next (buyers): place_order with the sessionId.`,
    routes: [acceptNegotiation],
    input: routeInput(acceptNegotiation),
    output: dataOf(acceptNegotiation),
    annotations: change({ idempotent: true }),
    call: (mk, args) => mk.negotiations.accept(id(args, 'sessionId'), args.body as RequestBody<'acceptNegotiation'>, options(args)),
  }),
  defineTool({
    name: 'reject_negotiation',
    title: 'Reject a negotiation',
    description: 'End an open negotiation session without a deal (either party, whoever’s turn it is). It cannot be reopened; a buyer may start a new one with start_negotiation.',
    routes: [rejectNegotiation],
    input: routeInput(rejectNegotiation),
    output: dataOf(rejectNegotiation),
    annotations: change({ destructive: true, idempotent: true }),
    call: (mk, args) => mk.negotiations.reject(id(args, 'sessionId'), args.body as RequestBody<'rejectNegotiation'>, options(args)),
  }),
  defineTool({
    name: 'list_orders',
    title: 'List your orders',
    description: `Your orders, newest first (status to filter: pending, confirmed, shipped, delivered, completed, cancelled). ${MONEY} ${PAGED}`,
    routes: [listOrders],
    input: routeInput(listOrders),
    output: dataOf(listOrders),
    annotations: READ,
    call: (mk, args) => firstPage(mk.orders.list(args.query as QueryParams<'listOrders'>)),
  }),
  defineTool({
    name: 'get_order',
    title: 'Get an order',
    description: `One order (ord_…): status (pending → confirmed → shipped → delivered → completed, or cancelled), items, totalAmount, shipping (carrier, trackingNumber once shipped), cancellation. ${MONEY}`,
    routes: [getOrder],
    input: routeInput(getOrder),
    output: dataOf(getOrder),
    annotations: READ,
    call: (mk, args) => mk.orders.get(id(args)),
  }),
  defineTool({
    name: 'get_order_audit',
    title: 'Get an order’s audit trail',
    description: `Every change of an order, oldest first: who (actor), when, from which status to which, with details. ${PAGED}`,
    routes: [getOrderAudit],
    input: routeInput(getOrderAudit),
    output: dataOf(getOrderAudit),
    annotations: READ,
    call: (mk, args) => firstPage(mk.orders.audit(id(args), args.query as QueryParams<'getOrderAudit'>)),
  }),
  defineTool({
    name: 'cancel_order',
    title: 'Cancel an order',
    description: 'Cancel an order that is pending or confirmed (either party; give a reason). Its quantity goes back to the seller’s stock. A shipped order can no longer be cancelled.',
    routes: [cancelOrder],
    input: routeInput(cancelOrder),
    output: dataOf(cancelOrder),
    annotations: change({ destructive: true, idempotent: true }),
    call: (mk, args) => mk.orders.cancel(id(args), args.body as RequestBody<'cancelOrder'>, options(args)),
  }),
  defineTool({
    name: 'create_webhook',
    title: 'Subscribe a URL to events',
    description: 'Have the marketplace POST your events to a URL (events: names such as order.shipped, or ["*"] for all). Each delivery is signed with the secret you choose (16–256 characters, never shown again) in the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature. Agents without a public URL follow list_events instead.',
    routes: [createWebhook],
    input: routeInput(createWebhook),
    output: dataOf(createWebhook),
    annotations: { ...change({ idempotent: false }), openWorldHint: true },
    call: (mk, args) => mk.webhooks.create(args.body as RequestBody<'createWebhook'>, options(args)),
  }),
  defineTool({
    name: 'list_webhooks',
    title: 'List your webhooks',
    description: `Your webhook subscriptions: id, url, events, active. ${PAGED}`,
    routes: [listWebhooks],
    input: routeInput(listWebhooks),
    output: dataOf(listWebhooks),
    annotations: READ,
    call: (mk, args) => firstPage(mk.webhooks.list(args.query as QueryParams<'listWebhooks'>)),
  }),
  defineTool({
    name: 'delete_webhook',
    title: 'Delete a webhook',
    description: 'Remove a webhook subscription (whk_…): no further deliveries are made to its URL.',
    routes: [deleteWebhook],
    input: routeInput(deleteWebhook),
    output: dataOf(deleteWebhook),
    annotations: change({ destructive: true, idempotent: true }),
    call: (mk, args) => mk.webhooks.delete(id(args)),
  }),
  defineTool({
    name: 'list_webhook_deliveries',
    title: 'List a webhook’s deliveries',
    description: `The deliveries to one webhook subscription, newest first, each with its attempts (time, HTTP status or error, duration): how to see why a receiver missed an event. status to filter (pending, delivered, failed). ${PAGED}`,
    routes: [listWebhookDeliveries],
    input: routeInput(listWebhookDeliveries),
    output: dataOf(listWebhookDeliveries),
    annotations: READ,
    call: (mk, args) => firstPage(mk.webhooks.deliveries.list(id(args), args.query as QueryParams<'listWebhookDeliveries'>)),
  }),
  // Buyers
  defineTool({
    name: 'start_negotiation',
    title: 'Start a negotiation',
    description: `Open a negotiation on an offer (ofr_… from search_products): quantity (at least the offer's minQuantity, at most what is available) and your proposed unitPrice (default: the offer's price for that quantity), optionally a message. The seller answers (its automatic policy may accept or counter at once: read status and turn in the result). A non-negotiable offer is accepted at its own price. ${MONEY} Next: counter_offer or accept_terms when it is your turn; place_order once accepted.`,
    routes: [startNegotiation],
    input: routeInput(startNegotiation),
    output: dataOf(startNegotiation),
    annotations: change({ idempotent: false }),
    call: (mk, args) => mk.negotiations.start(args.body as RequestBody<'startNegotiation'>, options(args)),
  }),
  defineTool({
    name: 'place_order',
    title: 'Place an order',
    description: `Order the accepted terms of a negotiation (sessionId of an accepted session), optionally with your buyerReference (e.g. a purchase order number) and a shippingAddress. The stock is reserved at once; the order starts pending with totalAmount = quantity × unitPrice. One order per session. ${MONEY} Next: follow it with list_events (order.confirmed, order.shipped, order.delivered), then complete_order once delivered.`,
    routes: [createOrder],
    input: routeInput(createOrder),
    output: dataOf(createOrder),
    annotations: change({ idempotent: true }),
    call: (mk, args) => mk.orders.create(args.body as RequestBody<'createOrder'>, options(args)),
  }),
  defineTool({
    name: 'complete_order',
    title: 'Complete an order',
    description: 'Confirm that a delivered order arrived as agreed: it becomes completed, the end of its life cycle.',
    routes: [completeOrder],
    input: routeInput(completeOrder),
    output: dataOf(completeOrder),
    annotations: change({ idempotent: true }),
    call: (mk, args) => mk.orders.complete(id(args), options(args)),
  }),
  // Sellers
  defineTool({
    name: 'get_feed_template',
    title: 'Get the feed template',
    description: 'The catalog feed template, csv (default) or json: content is a valid file you can edit and upload, fields describes every column (type, required, example). In CSV, prices are decimals in major units (12.50) with a currency column; in JSON, Money objects in minor units. Next: upload_feed.',
    routes: [getCsvFeedTemplate, getJsonFeedTemplate],
    input: templateInput,
    output: dataOf(getCsvFeedTemplate),
    annotations: READ,
    call: (mk, args) => (args.format === 'json' ? mk.templates.json() : mk.templates.csv()),
  }),
  defineTool({
    name: 'upload_feed',
    title: 'Upload a catalog feed',
    description: 'Add or update products: the file inline, as csv (text) or products (JSON rows); each row upserts one product and its offer by sku. Optional negotiation policy per row: floorUnitPrice (never shown to buyers; the policy counters proposals below it) and autoAcceptUnitPrice (proposals at or above it are accepted at once). The feed is processed in the background: it answers queued; call get_feed until status is completed (bad rows listed in errors) or failed (failureReason), or wait for feed.completed with list_events. Files over 5 MiB: upload with the SDK or the REST API instead.',
    routes: [uploadFeed],
    input: feedFileInput({ required: true }),
    output: dataOf(uploadFeed),
    annotations: change({ idempotent: false }),
    call: (mk, args) => mk.feeds.upload(args.upload as FeedUpload, options(args)),
  }),
  defineTool({
    name: 'get_feed',
    title: 'Get a feed',
    description: 'One feed (feed_…): status (queued → processing → completed or failed), rowsTotal, rowsSucceeded, rowsFailed, the first 100 row errors (row numbers from 1 below the CSV header) and warnings, failureReason.',
    routes: [getFeed],
    input: routeInput(getFeed),
    output: dataOf(getFeed),
    annotations: READ,
    call: (mk, args) => mk.feeds.get(id(args)),
  }),
  defineTool({
    name: 'list_feeds',
    title: 'List your feeds',
    description: `Your catalog feeds, newest first (status to filter). ${PAGED}`,
    routes: [listFeeds],
    input: routeInput(listFeeds),
    output: dataOf(listFeeds),
    annotations: READ,
    call: (mk, args) => firstPage(mk.feeds.list(args.query as QueryParams<'listFeeds'>)),
  }),
  defineTool({
    name: 'retry_feed',
    title: 'Retry a failed feed',
    description: 'Process a failed feed again: without a file, its stored file as it was; with csv or products, a corrected file in its place. Only a failed feed can be retried. Next: get_feed until completed or failed.',
    routes: [retryFeed],
    input: feedFileInput({ params: retryFeed.request.params, required: false }),
    output: dataOf(retryFeed),
    annotations: change({ idempotent: false }),
    call: (mk, args) => mk.feeds.retry(args.id as string, args.upload as FeedUpload | undefined, options(args)),
  }),
  defineTool({
    name: 'list_my_products',
    title: 'List your products',
    description: `Your own products, active and inactive, with their offers including your private negotiation policy (floorUnitPrice, autoAcceptUnitPrice). sku or status to filter. ${MONEY} ${PAGED}`,
    routes: [listSellerProducts],
    input: routeInput(listSellerProducts),
    output: dataOf(listSellerProducts),
    annotations: READ,
    call: (mk, args) => firstPage(mk.sellerProducts.list(args.query as QueryParams<'listSellerProducts'>)),
  }),
  defineTool({
    name: 'confirm_order',
    title: 'Confirm an order',
    description: 'Confirm a pending order of yours: you will fulfil it. Next: ship_order once it leaves your warehouse.',
    routes: [confirmOrder],
    input: routeInput(confirmOrder),
    output: dataOf(confirmOrder),
    annotations: change({ idempotent: true }),
    call: (mk, args) => mk.orders.confirm(id(args), options(args)),
  }),
  defineTool({
    name: 'ship_order',
    title: 'Ship an order',
    description: 'Mark a confirmed order shipped, with carrier and trackingNumber (and optionally a trackingUrl); the buyer is told (order.shipped). Next: mark_delivered once it has arrived.',
    routes: [shipOrder],
    input: routeInput(shipOrder),
    output: dataOf(shipOrder),
    annotations: change({ idempotent: true }),
    call: (mk, args) => mk.orders.ship(id(args), args.body as RequestBody<'shipOrder'>, options(args)),
  }),
  defineTool({
    name: 'mark_delivered',
    title: 'Mark an order delivered',
    description: 'Mark a shipped order delivered; the buyer then completes it with complete_order.',
    routes: [deliverOrder],
    input: routeInput(deliverOrder),
    output: dataOf(deliverOrder),
    annotations: change({ idempotent: true }),
    call: (mk, args) => mk.orders.deliver(id(args), options(args)),
  }),
];

/** The tools an agent of this role may call, in table order. */
export function toolsFor(role: Role): Tool[] {
  return TOOLS.filter((tool) => rolesOf(tool).includes(role));
}

export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((tool) => tool.name));
