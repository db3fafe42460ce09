// One HTTP exchange with the API, made safe: an Idempotency-Key on every POST (the caller's, or a new
// random one) sent unchanged on each retry of that call; retries on no answer, 429 and 5xx with
// exponential backoff, full jitter and Retry-After, bounded in count and total time; a timeout per
// attempt; the `{data, meta}` envelope unwrapped, with the exchange's details on `lastResponse`.
import { errorClassFor, MarketplaceConnectionError, MarketplaceError } from './errors.ts';
import { DEFAULT_RETRY_POLICY, parseRetryAfterMs, retryDelayMs, type AttemptOutcome, type RetryPolicy } from './retry.ts';
import type { ErrorDetail } from './types.ts';
import { SDK_VERSION } from './version.ts';

export interface ClientOptions {
  /** The agent's API key (`mk_test_…` or `mk_live_…`); defaults to MARKETPLACE_API_KEY. Registration needs none. */
  apiKey?: string;
  /** The API's root URL, without `/v1` (e.g. `http://localhost:3000`); defaults to MARKETPLACE_BASE_URL. */
  baseUrl?: string;
  /** Retries after the first attempt for retryable failures (default 2, so at most 3 attempts). */
  maxRetries?: number;
  /** Each attempt is abandoned after this many ms (default 30,000). */
  timeoutMs?: number;
  /** No retry starts later than this many ms after the call began (default 60,000). */
  maxRetryTimeMs?: number;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /**
   * The Idempotency-Key of a POST (default: a new random UUID per call, reused by its own retries).
   * `null` sends none: for a POST that changes nothing (a search), so that the API stores no answer.
   */
  idempotencyKey?: string | null;
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number;
  /** Overrides the client's retry count for this call. */
  maxRetries?: number;
  /** Abandons the call (and its retries); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** What the API said besides the data: on every returned record as the non-enumerable `lastResponse`. */
export interface ResponseInfo {
  /** The request id (`req_…`, also in `X-Request-Id`). */
  requestId: string | null;
  status: number;
  /** Response headers, names in lower case. */
  headers: Record<string, string>;
  /** The Idempotency-Key sent (POST only). */
  idempotencyKey: string | null;
  /** True when the API replayed the stored answer of an earlier request with the same key. */
  replayed: boolean;
  /** HTTP attempts made (1 when the first one answered). */
  attempts: number;
}

/** A record as returned by the SDK: the API's `data`, plus `lastResponse` (not enumerable, so not in JSON). */
export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export interface ApiRequest {
  method: HttpMethod;
  /** The path under the base URL, ids already encoded (use `path` below). */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** A JSON value, or a raw body with its content type (none for FormData, which sets its own). */
  body?: { json: unknown } | { raw: string | Uint8Array | Blob | FormData; contentType?: string } | undefined;
  options?: RequestOptions | undefined;
  /** A URL elsewhere (a presigned upload): sent without the API key, JSON headers or Idempotency-Key. */
  externalUrl?: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  info: ResponseInfo;
}

/** A path with each interpolated value percent-encoded: path`/v1/orders/${id}`. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((out, part, index) => out + part + (index < values.length ? encodeURIComponent(values[index] as string) : ''), '');
}

function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value === undefined || value === '' ? undefined : value;
}

function headersObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Marks an abort as ours (the attempt's timeout), as opposed to the caller's signal. */
class AttemptTimeout extends Error {}

type AttemptResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; text: string }
  | { kind: 'network'; error: unknown }
  | { kind: 'timeout'; error: unknown };

export class HttpClient {
  apiKey: string | undefined;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  readonly options: ClientOptions;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions = {}) {
    this.options = options;
    this.apiKey = options.apiKey ?? environment('MARKETPLACE_API_KEY');
    const baseUrl = options.baseUrl ?? environment('MARKETPLACE_BASE_URL');
    if (!baseUrl) throw new TypeError('Marketplace needs a baseUrl (e.g. http://localhost:3000), or MARKETPLACE_BASE_URL in the environment');
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(baseUrl)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`baseUrl must be http or https, got ${parsed.protocol}`);
    // Paths carry /v1 themselves; a base URL copied with it would double it.
    this.baseUrl = parsed.href.replace(/\/+$/, '').replace(/\/v1$/, '');
    this.timeoutMs = positive(options.timeoutMs, 'timeoutMs') ?? 30_000;
    this.policy = {
      ...DEFAULT_RETRY_POLICY,
      maxRetries: whole(options.maxRetries, 'maxRetries') ?? DEFAULT_RETRY_POLICY.maxRetries,
      maxRetryTimeMs: whole(options.maxRetryTimeMs, 'maxRetryTimeMs') ?? DEFAULT_RETRY_POLICY.maxRetryTimeMs,
    };
    const fetchImplementation = options.fetch ?? globalThis.fetch;
    if (typeof fetchImplementation !== 'function') throw new TypeError('No fetch available: use Node 20 or later, or pass options.fetch');
    this.#fetch = fetchImplementation;
  }

  /** Sends the request (with retries) and unwraps the envelope: the API's `data` with `lastResponse`. */
  async call<T>(request: ApiRequest): Promise<WithResponse<T>> {
    const response = await this.send(request);
    const envelope = response.body as { data?: unknown; meta?: { requestId?: string } } | null;
    if (envelope === null || typeof envelope !== 'object' || !('data' in envelope)) {
      throw new MarketplaceError({
        status: response.status,
        code: 'unexpected-response',
        message: `Expected a {data, meta} envelope from ${request.method} ${request.path}`,
        requestId: response.info.requestId,
        headers: response.headers,
        attempts: response.info.attempts,
      });
    }
    return withResponse(envelope.data as T, response.info);
  }

  /** Sends the request (with retries); resolves with any 2xx answer, throws MarketplaceError otherwise. */
  async send(request: ApiRequest): Promise<ApiResponse> {
    const options = request.options ?? {};
    const policy: RetryPolicy = { ...this.policy, maxRetries: whole(options.maxRetries, 'maxRetries') ?? this.policy.maxRetries };
    const timeoutMs = positive(options.timeoutMs, 'timeoutMs') ?? this.timeoutMs;
    const idempotencyKey = request.method === 'POST' && !request.externalUrl && options.idempotencyKey !== null ? (options.idempotencyKey ?? crypto.randomUUID()) : null;
    const url = this.url(request);
    const headers = this.headers(request, idempotencyKey);
    const started = Date.now();
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.attempt(url, request, headers, timeoutMs, options.signal);
      const outcome: AttemptOutcome =
        result.kind === 'response'
          ? { kind: 'response', status: result.status, code: errorCodeOf(result.text), retryAfterMs: parseRetryAfterMs(result.headers['retry-after']) }
          : { kind: result.kind };
      if (result.kind === 'response' && result.status >= 200 && result.status < 300) {
        const body = parseJson(result.text);
        const requestId = requestIdOf(body, result.headers);
        return {
          status: result.status,
          headers: result.headers,
          body: body === undefined ? result.text : body,
          info: { requestId, status: result.status, headers: result.headers, idempotencyKey, replayed: result.headers['idempotent-replayed'] === 'true', attempts: attempt },
        };
      }
      const delay = retryDelayMs({ outcome, attempt, elapsedMs: Date.now() - started, policy });
      if (delay === null) throw failure(result, attempt, request);
      await sleep(delay, options.signal);
    }
  }

  private url(request: ApiRequest): string {
    if (request.externalUrl) return request.externalUrl;
    const url = new URL(this.baseUrl + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value as readonly (string | number | boolean)[]) url.searchParams.append(name, String(item));
      else url.searchParams.append(name, String(value));
    }
    return url.href;
  }

  private headers(request: ApiRequest, idempotencyKey: string | null): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': `agent-marketplace-sdk-typescript/${SDK_VERSION}` };
    if (!request.externalUrl) headers.accept = 'application/json';
    if (this.apiKey && !request.externalUrl) headers.authorization = `Bearer ${this.apiKey}`;
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    const body = request.body;
    if (body && 'json' in body) headers['content-type'] = 'application/json';
    else if (body?.contentType) headers['content-type'] = body.contentType;
    for (const [name, value] of Object.entries(request.options?.headers ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  private async attempt(url: string, request: ApiRequest, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal | undefined): Promise<AttemptResult> {
    if (signal?.aborted) throw signal.reason as Error;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new AttemptTimeout(`No answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      const body = request.body === undefined ? undefined : 'json' in request.body ? JSON.stringify(request.body.json) : request.body.raw;
      const response = await this.#fetch(url, { method: request.method, headers, body: body as RequestInit['body'], signal: controller.signal, redirect: 'manual' });
      // The body is read under the same timeout: an answer is only complete once it has arrived.
      const text = await response.text();
      return { kind: 'response', status: response.status, headers: headersObject(response.headers), text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason as Error;
      if (controller.signal.reason instanceof AttemptTimeout) return { kind: 'timeout', error: controller.signal.reason };
      return { kind: 'network', error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`${name} must be a positive number of milliseconds, got ${value}`);
  return value;
}

function whole(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorCodeOf(text: string): string | undefined {
  const body = parseJson(text) as { code?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.code === 'string' ? body.code : undefined;
}

function requestIdOf(body: unknown, headers: Record<string, string>): string | null {
  const fromBody = (body as { meta?: { requestId?: unknown }; requestId?: unknown } | undefined) ?? {};
  const id = typeof fromBody === 'object' ? (fromBody.meta?.requestId ?? fromBody.requestId) : undefined;
  return typeof id === 'string' ? id : (headers['x-request-id'] ?? null);
}

/** Codes that answer a status on their own, for error bodies that are not ours (a proxy's, a gateway's). */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'request/malformed',
  401: 'auth/invalid-key',
  403: 'auth/forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  413: 'validation/too-large',
  422: 'validation/invalid',
  429: 'rate-limit',
  431: 'request/headers-too-large',
  500: 'internal',
};

function failure(result: AttemptResult, attempts: number, request: ApiRequest): Error {
  const what = `${request.method} ${request.path}`;
  if (result.kind === 'timeout') {
    return new MarketplaceConnectionError(`${what}: no answer within the timeout (${attempts} attempt${attempts === 1 ? '' : 's'})`, { cause: result.error, timedOut: true, attempts });
  }
  if (result.kind === 'network') {
    const reason = result.error instanceof Error ? (result.error.cause instanceof Error ? result.error.cause.message : result.error.message) : String(result.error);
    return new MarketplaceConnectionError(`${what}: could not reach the API (${reason}; ${attempts} attempt${attempts === 1 ? '' : 's'})`, { cause: result.error, timedOut: false, attempts });
  }
  const body = parseJson(result.text) as { error?: unknown; code?: unknown; details?: unknown; message?: unknown } | undefined;
  const ours = body !== undefined && body !== null && typeof body === 'object' && typeof body.code === 'string' && typeof body.error === 'string';
  const code = ours ? (body.code as string) : (CODE_BY_STATUS[result.status] ?? (result.status >= 500 ? 'internal' : `http/${result.status}`));
  const message = ours
    ? (body.error as string)
    : typeof body?.message === 'string'
      ? body.message
      : `${what} answered HTTP ${result.status}${result.text ? `: ${result.text.slice(0, 200)}` : ''}`;
  const details = ours && Array.isArray(body.details) ? (body.details as ErrorDetail[]) : [];
  const ErrorClass = errorClassFor(result.status, code);
  return new ErrorClass({ status: result.status, code, message, details, requestId: requestIdOf(body, result.headers), headers: result.headers, attempts });
}

/** Attaches the exchange's details to a returned object, out of sight of JSON.stringify and spreads. */
export function withResponse<T>(data: T, info: ResponseInfo): WithResponse<T> {
  if (data !== null && typeof data === 'object' && !Object.isFrozen(data)) {
    Object.defineProperty(data, 'lastResponse', { value: info, enumerable: false, configurable: true });
  }
  return data as WithResponse<T>;
}
