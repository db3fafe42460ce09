// Runtime configuration, read once per container from the environment and validated at cold start,
// so a misconfigured function fails on its first invocation instead of half-working.
//
// Plain checks rather than a zod schema: every function validates its configuration at init, and
// building and running a 20-field zod schema cost about a fifth of a route's import over a bare
// DynamoDB client (82 schema objects and a compiled parser; docs/decisions/init-work.md).

/** Seconds before each automatic retry of a failed webhook delivery (contract: 1 min, 5 min, 30 min, 2 h). */
export const DEFAULT_WEBHOOK_RETRY_DELAYS: readonly number[] = [60, 300, 1800, 7200];

/** Svix's rule: a subscription whose deliveries have all failed for 5 days is disabled. */
export const DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS = 5 * 24 * 60 * 60;

const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;

/** The house seller's fulfilment schedule when the stage sets none: ships 2 minutes after confirming, delivers 3 minutes after shipping. */
export const DEFAULT_HOUSE_SHIP_AFTER_SECONDS = 120;
export const DEFAULT_HOUSE_DELIVER_AFTER_SECONDS = 180;

export interface Config {
  /** `test` is the sandbox (and the local runtime), `live` is production. */
  STAGE: 'test' | 'live';
  TABLE_NAME: string;
  /** The stack's secret, at least 32 characters: keys for pagination cursors and for offers' private negotiation targets are derived from it. */
  CURSOR_SIGNING_KEY: string;
  /** Only the local runtime sets this: it lets webhooks point at loopback and private addresses. */
  ALLOW_PRIVATE_WEBHOOK_URLS: boolean;
  /** Seconds a resolved API key may be served from memory. Bounded to 30 by the contract. */
  API_KEY_CACHE_SECONDS: number;
  /**
   * Milliseconds a resolved restricted key may be served from memory (≤ 1,000): its revocation waits
   * this long before it answers, so that no container accepts the key after the owner is told it is revoked.
   */
  RESTRICTED_KEY_CACHE_MS: number;
  LOG_LEVEL: (typeof LOG_LEVELS)[number];
  /** The feeds bucket: set on the functions that store or read feed files. */
  FEEDS_BUCKET_NAME?: string;
  /**
   * Local runtime only: the S3 endpoint presigned upload URLs point at (its streaming upload proxy in
   * front of the emulator). Deployed stacks leave it unset and presign for S3 itself.
   */
  FEEDS_UPLOAD_ENDPOINT?: string;
  /** How long a feed run's lease lasts without a checkpoint before another run may take the feed over. */
  FEED_LEASE_SECONDS: number;
  /** How often a search instance compares its index with the change log's head (one GetItem). */
  SEARCH_INDEX_REFRESH_MS: number;
  /** Log entries since the last snapshot that make the snapshot worker take a new one (or 5 minutes). */
  SEARCH_SNAPSHOT_MIN_ENTRIES: number;
  /** Seconds before each automatic retry of a failed webhook delivery (contract: 1 min, 5 min, 30 min, 2 h). */
  WEBHOOK_RETRY_DELAYS: number[];
  /** A subscription whose deliveries have all failed for this long is disabled at its next failure (a stage setting: 5 days; seconds for tests). */
  WEBHOOK_DISABLE_AFTER_SECONDS: number;
  /** The webhook delivery queue; set on the functions that enqueue deliveries. */
  DELIVERY_QUEUE_URL?: string;
  /** The queue's ARN and the scheduler's group and role: set on the functions that schedule retries. */
  DELIVERY_QUEUE_ARN?: string;
  SCHEDULER_GROUP_NAME?: string;
  SCHEDULER_ROLE_ARN?: string;
  /**
   * This API's own root URL (no /v1), for functions that call it as a client (the MCP server's tools):
   * the stack sets the API's endpoint, the local runtime its gateway. Never taken from a request, so a
   * caller cannot point the tools at another host.
   */
  API_BASE_URL?: string;
  /**
   * Origins besides the API's own whose web pages may call POST /mcp (the MCP specification's
   * DNS-rebinding defence: shared/http/request-origin.ts): a custom domain, a browser-based MCP client
   * the platform team trusts. Comma-separated; the stack sets the stage's `mcpAllowedOrigins`.
   */
  MCP_ALLOWED_ORIGINS: string[];
  /**
   * The host names POST /mcp answers to, when it checks the Host header: the local runtime sets the
   * loopback names (a page served from one of them, on any port, may call it too). Unset on AWS, where
   * API Gateway answers only for its own domains.
   */
  MCP_ALLOWED_HOSTS?: string[];
  /** An open negotiation expires this long after its last move (contract: 72 h; shorter for tests). */
  NEGOTIATION_TTL_SECONDS: number;
  /** An order awaiting approval is declined (`approval_expired`) this long after it was placed (a stage setting: 72 h). */
  ORDER_APPROVAL_SECONDS: number;
  /**
   * The sandbox's house seller ships a confirmed order this long after confirming it, and delivers it
   * this long after shipping (the test stage's settings; seconds for `npm start` and the tests).
   */
  HOUSE_SHIP_AFTER_SECONDS: number;
  HOUSE_DELIVER_AFTER_SECONDS: number;
  /** The soonest a request for quotes may close after it is made (contract §5.7: 1 h; a stage setting, shorter to try closing locally). */
  RFQ_MIN_CLOSE_SECONDS: number;
}

/** Reads one variable after another and collects every problem, so one error names them all. */
class EnvReader {
  readonly problems: string[] = [];
  readonly env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv) {
    this.env = env;
  }

  #fail(name: string, message: string): undefined {
    this.problems.push(`${name}: ${message}`);
    return undefined;
  }

  /** Set and non-empty (at least `min` characters), or undefined when unset. */
  optional(name: string, min = 1): string | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    return value.length >= min ? value : this.#fail(name, `Must be at least ${min} character${min === 1 ? '' : 's'}`);
  }

  required(name: string, min = 1): string {
    if (this.env[name] === undefined) return this.#fail(name, 'Required') ?? '';
    return this.optional(name, min) ?? '';
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback?: T): T {
    const value = this.env[name] ?? fallback;
    if (value === undefined) return this.#fail(name, 'Required') ?? (values[0] as T);
    return (values as readonly string[]).includes(value) ? (value as T) : (this.#fail(name, `Must be one of ${values.join(', ')}`) ?? (values[0] as T));
  }

  integer(name: string, { min, max, fallback }: { min: number; max?: number; fallback: number }): number {
    const text = this.env[name];
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value)) return this.#fail(name, 'Must be a whole number') ?? fallback;
    if (value < min || (max !== undefined && value > max)) return this.#fail(name, `Must be ${max === undefined ? `at least ${min}` : `${min} to ${max}`}`) ?? fallback;
    return value;
  }

  url(name: string, protocols?: readonly string[]): string | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    const parsed = URL.parse(value);
    if (!parsed || (protocols && !protocols.includes(parsed.protocol))) return this.#fail(name, `Must be a URL${protocols ? ` (${protocols.join(' or ')})` : ''}`);
    return value;
  }

  /** A comma-separated list, each item checked (undefined when unset). */
  list(name: string, check: (item: string) => boolean, expected: string): string[] | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    const items = value.split(',').map((item) => item.trim()).filter((item) => item !== '');
    return items.every(check) ? items : this.#fail(name, `Must be comma-separated ${expected}`);
  }
}

/** An origin as browsers send it: scheme, host and port only (`https://example.com`, `http://localhost:6274`). */
const isOrigin = (value: string): boolean => {
  const url = URL.parse(value);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
};

/** A host name as the Host header carries it, without a port (`localhost`, `127.0.0.1`, `[::1]`). */
const isHostName = (value: string): boolean => URL.parse(`http://${value}`)?.hostname === value.toLowerCase();

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const read = new EnvReader(env);
  const delays = (env.WEBHOOK_RETRY_DELAYS ?? DEFAULT_WEBHOOK_RETRY_DELAYS.join(',')).split(',').map((part) => Number(part.trim()));
  if (!(delays.length >= 1 && delays.length <= 10 && delays.every((delay) => Number.isInteger(delay) && delay >= 1 && delay <= 86_400))) {
    read.problems.push('WEBHOOK_RETRY_DELAYS: Must be 1 to 10 comma-separated whole seconds, each 1 to 86400');
  }
  const parsed: Config = {
    STAGE: read.oneOf('STAGE', ['test', 'live']),
    TABLE_NAME: read.required('TABLE_NAME'),
    CURSOR_SIGNING_KEY: read.required('CURSOR_SIGNING_KEY', 32),
    ALLOW_PRIVATE_WEBHOOK_URLS: read.oneOf('ALLOW_PRIVATE_WEBHOOK_URLS', ['true', 'false'], 'false') === 'true',
    API_KEY_CACHE_SECONDS: read.integer('API_KEY_CACHE_SECONDS', { min: 0, max: 30, fallback: 30 }),
    RESTRICTED_KEY_CACHE_MS: read.integer('RESTRICTED_KEY_CACHE_MS', { min: 0, max: 1000, fallback: 1000 }),
    LOG_LEVEL: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'INFO'),
    FEEDS_BUCKET_NAME: read.optional('FEEDS_BUCKET_NAME'),
    FEEDS_UPLOAD_ENDPOINT: read.url('FEEDS_UPLOAD_ENDPOINT'),
    FEED_LEASE_SECONDS: read.integer('FEED_LEASE_SECONDS', { min: 2, max: 900, fallback: 60 }),
    SEARCH_INDEX_REFRESH_MS: read.integer('SEARCH_INDEX_REFRESH_MS', { min: 0, max: 60_000, fallback: 1000 }),
    SEARCH_SNAPSHOT_MIN_ENTRIES: read.integer('SEARCH_SNAPSHOT_MIN_ENTRIES', { min: 1, fallback: 200 }),
    WEBHOOK_RETRY_DELAYS: delays,
    WEBHOOK_DISABLE_AFTER_SECONDS: read.integer('WEBHOOK_DISABLE_AFTER_SECONDS', { min: 1, max: 90 * 24 * 60 * 60, fallback: DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS }),
    DELIVERY_QUEUE_URL: read.optional('DELIVERY_QUEUE_URL'),
    DELIVERY_QUEUE_ARN: read.optional('DELIVERY_QUEUE_ARN'),
    SCHEDULER_GROUP_NAME: read.optional('SCHEDULER_GROUP_NAME'),
    SCHEDULER_ROLE_ARN: read.optional('SCHEDULER_ROLE_ARN'),
    API_BASE_URL: read.url('API_BASE_URL', ['http:', 'https:']),
    MCP_ALLOWED_ORIGINS: read.list('MCP_ALLOWED_ORIGINS', isOrigin, 'origins (https://example.com)') ?? [],
    MCP_ALLOWED_HOSTS: read.list('MCP_ALLOWED_HOSTS', isHostName, 'host names without a port (localhost)'),
    NEGOTIATION_TTL_SECONDS: read.integer('NEGOTIATION_TTL_SECONDS', { min: 1, max: 30 * 24 * 60 * 60, fallback: 72 * 60 * 60 }),
    ORDER_APPROVAL_SECONDS: read.integer('ORDER_APPROVAL_SECONDS', { min: 1, max: 30 * 24 * 60 * 60, fallback: 72 * 60 * 60 }),
    HOUSE_SHIP_AFTER_SECONDS: read.integer('HOUSE_SHIP_AFTER_SECONDS', { min: 0, max: 7 * 24 * 60 * 60, fallback: DEFAULT_HOUSE_SHIP_AFTER_SECONDS }),
    HOUSE_DELIVER_AFTER_SECONDS: read.integer('HOUSE_DELIVER_AFTER_SECONDS', { min: 0, max: 7 * 24 * 60 * 60, fallback: DEFAULT_HOUSE_DELIVER_AFTER_SECONDS }),
    RFQ_MIN_CLOSE_SECONDS: read.integer('RFQ_MIN_CLOSE_SECONDS', { min: 1, max: 60 * 60, fallback: 60 * 60 }),
  };
  if (read.problems.length > 0) throw new Error(`Invalid configuration: ${read.problems.join('; ')}`);
  // Unset optional settings are absent, as they were from the schema, not present as undefined.
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined)) as unknown as Config;
}

let cached: Config | undefined;

/** The process-wide configuration; validated on first use (module initialisation of every handler). */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

/** The local runtime, operator commands and tests change the environment; this forgets the cached copy. */
export function resetConfig(): void {
  cached = undefined;
}

export function apiKeyPrefixFor(stage: Config['STAGE']): 'mk_test_' | 'mk_live_' {
  return stage === 'live' ? 'mk_live_' : 'mk_test_';
}

/** A setting that only some functions need, checked when they first use it. */
export function requiredSetting<K extends 'FEEDS_BUCKET_NAME' | 'DELIVERY_QUEUE_URL' | 'DELIVERY_QUEUE_ARN' | 'SCHEDULER_GROUP_NAME' | 'SCHEDULER_ROLE_ARN' | 'API_BASE_URL'>(name: K): NonNullable<Config[K]> {
  const value = config()[name];
  if (value === undefined) throw new Error(`Invalid configuration: ${name} is not set for this function`);
  return value;
}
