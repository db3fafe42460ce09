// API keys: generation, format, hashing, and resolving a presented key to its agent and key. Only the
// SHA-256 of a key is ever stored; keys carry 238 bits of randomness, so a fast unsalted hash cannot be
// reversed by guessing. One GetItem (the key's hash item) tells everything a request needs: the agent,
// its role and plan, and for a restricted key its scopes, limits, expiry and revocation.
import { createHash, randomInt } from 'node:crypto';
import { encodeTime } from 'ulid';
import { apiKeyPrefixFor, config, type Config } from '../config.ts';
import { findApiKey, type ApiKeyItem } from '../data/agents.ts';
import { touchRestrictedKey } from '../data/restricted-keys.ts';
import { logger } from '../logger.ts';
import type { Plan, Role } from '../schemas/agents.ts';
import type { KeyLimits, Scope } from '../schemas/keys.ts';
import { cacheApiKey, cachedApiKey } from './api-key-cache.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
const KEY_FORMAT = /^mk_(test|live)_[0-9A-Za-z]{32,128}$/;

/** Number of leading characters kept in clear on the agent record (`apiKeyPrefix`). */
export const VISIBLE_PREFIX_LENGTH = 12;

export function generateApiKey(stage: Config['STAGE']): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  return `${apiKeyPrefixFor(stage)}${random}`;
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/** Is the string a well-formed key of this stack's environment? (Others get "Invalid API Key".) */
export function isKeyOfEnvironment(apiKey: string, stage: Config['STAGE']): boolean {
  return KEY_FORMAT.test(apiKey) && apiKey.startsWith(apiKeyPrefixFor(stage));
}

export function visiblePrefix(apiKey: string): string {
  return apiKey.slice(0, VISIBLE_PREFIX_LENGTH);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The id of a main key written before keys had ids: a `key_` ULID whose time is the key's creation and
 * whose random part is the first 80 bits of its hash, so that it is the same on every read.
 */
export function legacyKeyId(apiKeyHash: string, createdAt: string): string {
  let bits = BigInt(`0x${apiKeyHash.slice(0, 20)}`);
  let random = '';
  for (let i = 0; i < 16; i++) {
    random = CROCKFORD[Number(bits & 31n)] + random;
    bits >>= 5n;
  }
  const ms = Date.parse(createdAt);
  return `key_${encodeTime(Number.isFinite(ms) ? ms : 0, 10)}${random}`;
}

/** The agent and key behind a live key. */
export interface Caller {
  agentId: string;
  role: Role;
  plan: Plan;
  apiKeyHash: string;
  /** The key that authenticated the request (`key_…`): named in the audit trail and the access log. */
  keyId: string;
  keyKind: 'main' | 'restricted';
  /** A restricted key's name; null for the main key. */
  keyName: string | null;
  /** A restricted key's scopes; null for the main key, which has every scope. */
  scopes: readonly Scope[] | null;
  /** A restricted key's spending limits; null when it has none (and for the main key). */
  limits: KeyLimits | null;
  /** When a restricted key stops working; null when it does not expire (the main key never does). */
  expiresAt: string | null;
}

function callerOf(item: ApiKeyItem, hash: string): Caller {
  const restricted = item.kind === 'restricted';
  return {
    agentId: item.agentId,
    role: item.role,
    plan: item.plan,
    apiKeyHash: hash,
    keyId: item.keyId ?? legacyKeyId(hash, item.createdAt),
    keyKind: restricted ? 'restricted' : 'main',
    keyName: restricted ? (item.name ?? null) : null,
    scopes: restricted ? (item.scopes ?? []) : null,
    limits: restricted ? (item.limits ?? null) : null,
    expiresAt: restricted ? (item.expiresAt ?? null) : null,
  };
}

/** When each restricted key was last recorded as used by this container (lastUsedAt: to the minute). */
const lastTouched = new Map<string, number>();
const TOUCH_INTERVAL_MS = 60_000;
const MAX_TOUCHED = 10_000;

async function recordUse(item: ApiKeyItem, keyId: string, now: Date): Promise<void> {
  const previous = lastTouched.get(keyId);
  if (previous !== undefined && now.getTime() - previous < TOUCH_INTERVAL_MS) return;
  if (lastTouched.size >= MAX_TOUCHED) lastTouched.delete(lastTouched.keys().next().value as string);
  lastTouched.set(keyId, now.getTime());
  try {
    await touchRestrictedKey(item.agentId, keyId, now.toISOString());
  } catch (error) {
    // lastUsedAt is information for the owner; a request never fails for it.
    logger.warn('Could not record the use of a restricted key', { keyId, error: error as Error });
  }
}

/**
 * The agent and key behind a presented key, or undefined when the key is malformed, of the other
 * environment, unknown, revoked or expired. Served from the key cache when possible: a main key for up
 * to API_KEY_CACHE_SECONDS (≤ 30 s), a restricted key for up to RESTRICTED_KEY_CACHE_MS (≤ 1 s; revoking
 * one waits that long before it answers), its expiry checked at every request (docs/decisions/).
 */
export async function resolveApiKey(apiKey: string, now: Date): Promise<Caller | undefined> {
  const { STAGE, API_KEY_CACHE_SECONDS, RESTRICTED_KEY_CACHE_MS } = config();
  if (!isKeyOfEnvironment(apiKey, STAGE)) return undefined;
  const hash = hashApiKey(apiKey);
  const nowMs = now.getTime();
  let item = cachedApiKey(hash, nowMs);
  if (!item) {
    item = await findApiKey(hash);
    if (item) cacheApiKey(hash, item, nowMs, item.kind === 'restricted' ? Math.min(RESTRICTED_KEY_CACHE_MS, API_KEY_CACHE_SECONDS * 1000) : API_KEY_CACHE_SECONDS * 1000);
  }
  if (!item || item.environment !== STAGE) return undefined;
  if (item.kind === 'restricted') {
    if (item.revokedAt || (item.expiresAt && item.expiresAt <= now.toISOString())) return undefined;
  }
  const caller = callerOf(item, hash);
  if (caller.keyKind === 'restricted') await recordUse(item, caller.keyId, now);
  return caller;
}
