// The shape of a route-table row. Each row is a module beside its handler
// (functions/<resource>/<action>.route.ts); the index generated from those files
// (functions/registry.generated.ts, read through functions/registry.ts) assembles them for the CDK
// stack, the local gateway, the OpenAPI document and the MCP tools. A handler imports only its own row.
import type * as z from '../schemas/zod.ts';
import type { BundledFile, FeedFileAction, SearchIndexAction, Stage, TableAction } from '../resources.ts';
import type { Role } from '../schemas/agents.ts';
import type { RouteScope } from '../schemas/keys.ts';
import type { ErrorCode } from './error-codes.ts';

export type { TableAction } from '../resources.ts';
export { servedOn } from '../resources.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * The OpenAPI tags that group operations, in the order the documents show them (each described in
 * shared/openapi/content.ts): the index lists routes by tag in this order (compareRoutes).
 */
export const ROUTE_TAGS = ['Agents', 'Search', 'Catalog', 'Seller feeds', 'Negotiation', 'Orders', 'Requests for quotes', 'Webhooks', 'Events', 'Requests', 'Test helpers', 'Operations', 'MCP'] as const;
export type RouteTag = (typeof ROUTE_TAGS)[number];

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'DELETE'];

/**
 * The order of the route index, and so of the OpenAPI document's paths, llms.txt, docs/endpoints.md and
 * tools/list: by tag (ROUTE_TAGS), then path, then method (GET, POST, PATCH, DELETE). A new route's
 * place follows from its row; nobody keeps a list in order.
 */
export function compareRoutes(a: Pick<RouteDefinition, 'tag' | 'path' | 'method'>, b: Pick<RouteDefinition, 'tag' | 'path' | 'method'>): number {
  return ROUTE_TAGS.indexOf(a.tag) - ROUTE_TAGS.indexOf(b.tag) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method);
}

/**
 * Examples of one call, consistent across routes (the ids of shared/schemas/examples.ts flow from
 * search to negotiation to order). The OpenAPI document shows them; a test validates each against the
 * route's zod schemas and the emitted JSON Schemas.
 */
export interface RouteExamples {
  /** A JSON request body the route accepts. */
  body?: unknown;
  /** Query parameters as sent on the wire (strings). */
  query?: Readonly<Record<string, string>>;
  /** The success response's `data` (for `raw` routes, the whole body). */
  response: unknown;
}

/** Both roles: the route does not depend on the caller's role. */
export const ANY_ROLE = ['buyer', 'seller'] as const;

export interface RouteDefinition<
  Body extends z.ZodMiniType = z.ZodMiniType,
  Query extends z.ZodMiniType = z.ZodMiniType,
  Params extends z.ZodMiniType = z.ZodMiniType,
> {
  /** Unique, stable name: the OpenAPI operationId and the Lambda construct id. */
  operationId: string;
  method: HttpMethod;
  /** API Gateway path syntax: `/v1/webhooks/{id}`. */
  path: string;
  /** Module (relative to the repository root) whose `handler` export serves the route. */
  handler: string;
  summary: string;
  /**
   * What the operation does, for a reader with nothing but the API document (often a language model):
   * who may call it, the states it accepts and moves to, units, where its ids come from and what a
   * caller usually does next. Markdown. The callers and error codes are added from the row's flags.
   */
  description: string;
  tag: RouteTag;
  /** `apiKey`: the Authorization header is required. `public`: no key (limited per source IP). */
  auth: 'apiKey' | 'public';
  /** Roles that may call an `apiKey` route; any other gets 403. */
  roles: readonly Role[];
  /**
   * The stages the route exists in; default both. The sandbox's test helpers say `['test']`: a live
   * stack neither deploys nor documents them, and their function answers 404 anywhere else
   * (docs/decisions/test-stage-routes.md). The local runtime is a sandbox and serves them.
   */
  stages?: readonly Stage[];
  /**
   * What the calling key needs (contract §5.1), checked by the shared pipeline before the role guard
   * (shared/domain/scopes.ts): a scope (`orders:write` also grants `orders:read`); `main`, the agent's
   * main key only; `any`, any key of the agent. Null exactly on `public` routes.
   */
  scope: RouteScope | null;
  /** False for the readiness probe and the static pages for agents (llms.txt), which need no table at all. */
  rateLimited: boolean;
  request: { body?: Body; query?: Query; params?: Params };
  /** The success response (its schema is in the route's document: RouteDocument). */
  response: {
    status: 200 | 201 | 202;
    description: string;
    /** Served as-is, without the `{data, meta}` envelope (the OpenAPI document). */
    raw?: boolean;
    /** Media type of a `raw` response, for the OpenAPI document (default application/json). */
    contentType?: 'application/json' | 'text/html' | 'text/markdown';
    /** The route can also answer a raw body of this type, when the request's Accept asks for it (the handler decides how). */
    rawContentType?: string;
  };
  /** Errors the handler itself raises; those the middleware stack raises are derived (errorCodesFor). */
  handlerErrors: readonly ErrorCode[];
  /** Table actions the handler itself performs; the middleware's own needs are added by tableActionsFor. */
  tableActions: readonly TableAction[];
  /** What the handler does with feed files in the feeds bucket (the stack grants exactly these and names the bucket). */
  feedFileActions?: readonly FeedFileAction[];
  /** The handler puts webhook delivery messages on the delivery queue. */
  sendsDeliveries?: boolean;
  /** What the handler does with search index snapshots (`search-index/` in the feeds bucket). */
  searchIndexActions?: readonly SearchIndexAction[];
  /**
   * The function's time limit in seconds; default 10. Must stay below API Gateway's 30 s integration
   * limit, after which the caller gets the gateway's 503 instead of our answer.
   */
  timeoutSeconds?: number;
  /** Largest accepted body; defaults to 1 MB. For a multipart upload, the largest file. */
  maxBodyBytes?: number;
  /** What the 413 adds after the limit, given the request's path: how to send something larger. */
  tooLargeAdvice?: (path: string) => string;
  /**
   * File uploads the route takes besides JSON: the body of these media types reaches the handler as
   * bytes (`upload`), not parsed and not validated against `request.body`. A multipart body's `file`
   * part is the file. JSON bodies are parsed and validated as usual, and their bytes kept as `upload`.
   */
  uploads?: readonly UploadMediaType[];
  /**
   * Files built at synth time (lib/bundled-files.ts) and shipped beside the function's bundle; the
   * handler reads them from bundledFilePath(), at cold start or on first use. The local
   * runtime builds them at start.
   */
  bundledFiles?: readonly BundledFile[];
  /**
   * The handler is a client of this API (the MCP server's tools): it calls other operations over HTTP
   * with the caller's key, exactly as any client does. Its function gets the API's own URL
   * (API_BASE_URL) from the stack or the local runtime, never from the request, and it may carry
   * other routes' rows, for their schemas (POST /mcp: the MCP tool table).
   */
  callsApi?: boolean;
  /**
   * The request's Origin (and, where the runtime names its host names, its Host) is checked before its
   * key (shared/http/request-origin.ts): a web page of another site gets 403 and the MCP transport's
   * JSON-RPC error, however valid its key (the MCP specification's DNS-rebinding defence). The function
   * gets the API's own URL and the stage's allowed origins from the stack.
   */
  checksOrigin?: true;
  /**
   * The function's bundle budget in kB, when it may not keep the default (DEFAULT_BUNDLE_BUDGET_KB);
   * docs/performance.md records the measurement that justifies it.
   */
  bundleBudgetKb?: number;
  /** Requests to the route stay out of the caller's request log: the log's own reads (a tail would fill it with itself). */
  unlogged?: true;
  /**
   * A page for people, not agents (the dashboard, the reference page's files): left out of the OpenAPI
   * document, which agents read whole and which has a size budget (docs/api-document.md); llms.txt
   * lists it under Optional.
   */
  pageForPeople?: true;
  /**
   * A discovery document of another protocol (the A2A agent card): read by that protocol's clients,
   * not an operation of this API, so left out of the OpenAPI document (and its size budget) like the
   * pages for people; llms.txt lists it with the documents.
   */
  discoveryDocument?: true;
}

/**
 * What a function's bundle may weigh (esbuild output, minified, kB of 1024 bytes, the AWS SDK included
 * as deployed), unless its row says otherwise. What users feel is the cold start's import time, not the
 * bytes (bench/cold-start.ts measures it); this budget guards against a handler pulling in what it does
 * not use (docs/performance.md). The largest bundles (the searches and the feed functions, which hold
 * the S3 client besides DynamoDB's, Middy and Powertools with the X-Ray SDK) are about 810 kB: the
 * budget leaves them a tenth (`bundleKbMax` in bench/results.json).
 */
export const DEFAULT_BUNDLE_BUDGET_KB = 900;

export type { BundledFile } from '../resources.ts';

export type UploadMediaType = 'text/csv' | 'multipart/form-data';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** A multipart body wraps its file in boundaries and part headers: allowed on top of the file's limit. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Keeps the row's literal types (its auth mode and exact schemas) so handlers get typed input. */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/**
 * What a route's module gives besides its row, as a function (`routeDocument`) that no handler
 * imports: what only the OpenAPI document, llms.txt and the MCP tools read. A function never builds
 * its response schema or its examples at cold start (docs/decisions/route-documents.md).
 */
export interface RouteDocument {
  /** Schema of `data` inside the envelope, or of the whole body when `raw`. */
  responseSchema: z.ZodMiniType;
  examples: RouteExamples;
  /**
   * Answers of a protocol endpoint besides `response` and the error table's, as the protocol defines
   * them (POST /mcp: 202 with no body for a notification, a JSON-RPC error for a message or a web page it refuses).
   */
  protocolResponses?: readonly { status: 202 | 400 | 403; description: string; schema?: z.ZodMiniType; example?: unknown }[];
}

/** A row with its document: what the route index gives the OpenAPI document, llms.txt and the MCP tools. */
export type RouteWithDocument<R extends RouteDefinition = RouteDefinition> = R & {
  response: R['response'] & { schema: z.ZodMiniType };
  examples: RouteExamples;
  protocolResponses?: RouteDocument['protocolResponses'];
};

/** A route module's row and document as one (built where they are read, never in a function). */
export function withDocument<R extends RouteDefinition>(module: { route: R; routeDocument: () => RouteDocument }): RouteWithDocument<R> {
  const { responseSchema, examples, protocolResponses } = module.routeDocument();
  return { ...module.route, response: { ...module.route.response, schema: responseSchema }, examples, ...(protocolResponses ? { protocolResponses } : {}) };
}

/** Every table action a route's function needs: its own plus those of the shared middleware stack. */
export function tableActionsFor(route: RouteDefinition): TableAction[] {
  const actions = new Set<TableAction>(route.tableActions);
  if (route.auth === 'apiKey' || route.rateLimited) actions.add('dynamodb:GetItem'); // API-key lookup
  if (route.auth === 'apiKey') actions.add('dynamodb:UpdateItem'); // a restricted key's lastUsedAt, once a minute
  if (route.rateLimited) actions.add('dynamodb:UpdateItem'); // rate-limit counters
  if (route.method === 'POST') {
    // Idempotency records: claim, complete, release.
    actions.add('dynamodb:PutItem');
    actions.add('dynamodb:UpdateItem');
    actions.add('dynamodb:DeleteItem');
  }
  return [...actions].sort();
}

/** Path `/v1/webhooks/{id}` → names of its parameters. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
}

/** Every error code a route can answer with: the middleware stack's, derived from the row's flags, and the handler's own. */
export function errorCodesFor(route: RouteDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (route.auth === 'apiKey') codes.add('auth/invalid-key');
  if (route.auth === 'apiKey' && route.roles.length < 2) codes.add('auth/forbidden');
  if (pathParameterNames(route.path).length > 0) codes.add('not-found');
  if (route.method === 'POST') codes.add('idempotency/conflict');
  if (route.method === 'POST' || route.method === 'PATCH') codes.add('validation/too-large');
  if (route.rateLimited) codes.add('rate-limit');
  for (const code of route.handlerErrors) codes.add(code);
  // After the handler's: one order of 403 codes, so that routes answering the same ones share a response.
  if (route.auth === 'apiKey' && route.scope !== 'any') codes.add('auth/insufficient-scope');
  codes.add('validation/invalid');
  codes.add('internal');
  return [...codes];
}
