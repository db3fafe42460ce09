// Runtime configuration, read once per container from the environment and validated at cold start,
// so a misconfigured function fails on its first invocation instead of half-working.
import * as z from 'zod';

/** Seconds before each automatic retry of a failed webhook delivery (contract: 1 min, 5 min, 30 min, 2 h). */
export const DEFAULT_WEBHOOK_RETRY_DELAYS: readonly number[] = [60, 300, 1800, 7200];

const Flag = z.enum(['true', 'false']).default('false').transform((value) => value === 'true');

const ConfigSchema = z.object({
  /** `test` is the sandbox (and the local runtime), `live` is production. */
  STAGE: z.enum(['test', 'live']),
  TABLE_NAME: z.string().min(1),
  /** The stack's secret, at least 32 characters: keys for pagination cursors and for offers' private negotiation targets are derived from it. */
  CURSOR_SIGNING_KEY: z.string().min(32),
  /** Only the local runtime sets this: it lets webhooks point at loopback and private addresses. */
  ALLOW_PRIVATE_WEBHOOK_URLS: Flag,
  /** Seconds a resolved API key may be served from memory. Bounded to 30 by the contract. */
  API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(30).default(30),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
  /** The feeds bucket: set on the functions that store or read feed files. */
  FEEDS_BUCKET_NAME: z.string().min(1).optional(),
  /**
   * Local runtime only: the S3 endpoint presigned upload URLs point at (its streaming upload proxy in
   * front of the emulator). Deployed stacks leave it unset and presign for S3 itself.
   */
  FEEDS_UPLOAD_ENDPOINT: z.url().optional(),
  /** How long a feed run's lease lasts without a checkpoint before another run may take the feed over. */
  FEED_LEASE_SECONDS: z.coerce.number().int().min(2).max(900).default(60),
  /** How often a search instance compares its index with the change log's head (one GetItem). */
  SEARCH_INDEX_REFRESH_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Log entries since the last snapshot that make the snapshot worker take a new one (or 5 minutes). */
  SEARCH_SNAPSHOT_MIN_ENTRIES: z.coerce.number().int().min(1).default(200),
  /** Seconds before each automatic retry of a failed webhook delivery (contract: 1 min, 5 min, 30 min, 2 h). */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .default(DEFAULT_WEBHOOK_RETRY_DELAYS.join(','))
    .transform((text) => text.split(',').map((part) => Number(part.trim())))
    .refine((delays) => delays.length >= 1 && delays.length <= 10 && delays.every((delay) => Number.isInteger(delay) && delay >= 1 && delay <= 86_400), 'Must be 1 to 10 comma-separated whole seconds, each 1 to 86400'),
  /** The webhook delivery queue; set on the functions that enqueue deliveries. */
  DELIVERY_QUEUE_URL: z.string().min(1).optional(),
  /** The queue's ARN and the scheduler's group and role: set on the functions that schedule retries. */
  DELIVERY_QUEUE_ARN: z.string().min(1).optional(),
  SCHEDULER_GROUP_NAME: z.string().min(1).optional(),
  SCHEDULER_ROLE_ARN: z.string().min(1).optional(),
  /** An open negotiation expires this long after its last move (contract: 72 h; shorter for tests). */
  /**
   * This API's own root URL (no /v1), for functions that call it as a client (the MCP server's tools):
   * the stack sets the API's endpoint, the local runtime its gateway. Never taken from a request, so a
   * caller cannot point the tools at another host.
   */
  API_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  NEGOTIATION_TTL_SECONDS: z.coerce.number().int().min(1).max(30 * 24 * 60 * 60).default(72 * 60 * 60),
});

export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
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
