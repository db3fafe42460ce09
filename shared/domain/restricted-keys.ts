// Restricted keys (contract §5.1): the agent's main key creates, lists, reads, changes and revokes the
// keys its owner gives to programs acting for it. A key's secret is shown once, at creation, and only
// its hash is stored; a revoked key answers 401 from the next request on (revocation waits out the
// restricted-key cache before it answers: ./api-key-cache.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../config.ts';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import {
  createRestrictedKey,
  getRestrictedKey,
  listRestrictedKeys,
  revokeRestrictedKey,
  updateRestrictedKey,
  type KeyChanges,
  type RestrictedKeyItem,
} from '../data/restricted-keys.ts';
import { fail, invalidFields, type FieldProblem } from '../failures.ts';
import { newId } from '../ids.ts';
import type { Role } from '../schemas/agents.ts';
import { MAX_ACTIVE_RESTRICTED_KEYS, type KeyLimits, type RestrictedKey, type Scope } from '../schemas/keys.ts';
import { forgetApiKey } from './api-key-cache.ts';
import { generateApiKey, hashApiKey, visiblePrefix, type Caller } from './api-keys.ts';

/** The furthest ahead a key may expire. */
const MAX_LIFETIME_MS = 5 * 366 * 24 * 60 * 60 * 1000;

/** A restricted key as its owner sees it: never its hash, its status at `now`. */
export function toRestrictedKey(item: RestrictedKeyItem, now: Date): RestrictedKey {
  const status = item.revokedAt ? 'revoked' : item.expiresAt !== undefined && item.expiresAt <= now.toISOString() ? 'expired' : 'active';
  return {
    keyId: item.keyId,
    kind: 'restricted',
    name: item.name,
    apiKeyPrefix: item.apiKeyPrefix,
    scopes: item.scopes,
    limits: item.limits,
    status,
    expiresAt: item.expiresAt ?? null,
    createdAt: item.createdAt,
    lastUsedAt: item.lastUsedAt ?? null,
    revokedAt: item.revokedAt ?? null,
  };
}

function expiryProblems(expiresAt: string | null | undefined, now: Date): FieldProblem[] {
  if (expiresAt === undefined || expiresAt === null) return [];
  const at = Date.parse(expiresAt);
  if (at <= now.getTime()) return [{ path: 'expiresAt', message: `Must be in the future (it is now ${now.toISOString()})` }];
  if (at - now.getTime() > MAX_LIFETIME_MS) return [{ path: 'expiresAt', message: 'Must be at most 5 years ahead' }];
  return [];
}

/** Spending limits are a buyer's: a seller orders nothing. */
function limitsProblems(role: Role, limits: KeyLimits | null | undefined): FieldProblem[] {
  if (!limits || role === 'buyer' || Object.keys(limits).length === 0) return [];
  return [{ path: 'limits', message: 'Spending limits are for buyers’ keys: a seller places no orders; leave limits out' }];
}

/** Stored timestamps are ISO with milliseconds (the schema reads them so). */
const normalised = (expiresAt: string | null | undefined) => (expiresAt ? new Date(expiresAt).toISOString() : expiresAt);

export interface NewKey {
  name: string;
  scopes: Scope[];
  limits?: KeyLimits | undefined;
  expiresAt?: string | undefined;
}

export async function createKey(caller: Caller, input: NewKey, now: Date): Promise<RestrictedKey & { apiKey: string }> {
  const problems = [...limitsProblems(caller.role, input.limits), ...expiryProblems(input.expiresAt, now)];
  if (problems.length > 0) throw invalidFields(problems);
  const apiKey = generateApiKey(config().STAGE);
  const at = now.toISOString();
  const expiresAt = normalised(input.expiresAt);
  const record: RestrictedKeyItem = {
    keyId: newId('key'),
    agentId: caller.agentId,
    name: input.name,
    apiKeyPrefix: visiblePrefix(apiKey),
    apiKeyHash: hashApiKey(apiKey),
    scopes: input.scopes,
    limits: input.limits && Object.keys(input.limits).length > 0 ? input.limits : null,
    ...(expiresAt ? { expiresAt } : {}),
    createdAt: at,
    updatedAt: at,
    holdsSlot: true,
  };
  const outcome = await createRestrictedKey(record, at);
  if ('refused' in outcome) {
    if (outcome.refused === 'no-agent') throw fail.notFound('Agent not found');
    throw fail.conflict(`An agent may have at most ${MAX_ACTIVE_RESTRICTED_KEYS} active restricted keys; revoke one first (DELETE /v1/agents/me/keys/{keyId})`, [
      { path: 'keys', message: `${MAX_ACTIVE_RESTRICTED_KEYS} of ${MAX_ACTIVE_RESTRICTED_KEYS} in use` },
    ]);
  }
  return { ...toRestrictedKey(outcome.created, now), apiKey };
}

const notFound = (keyId: string) => fail.notFound(`Key ${keyId} not found`);

/** The main key as a list shows it: its id, nothing else. */
const mainKeyOf = (caller: Caller) => ({ keyId: caller.keyId, kind: 'main' as const });

/** The agent's keys: the main key first (on the first page), then its restricted keys, newest first. */
export async function listKeys(caller: Caller, query: { limit: number; cursor?: string | undefined }, now: Date) {
  const scope = `keys:${caller.agentId}`;
  const first = query.cursor === undefined;
  const restrictedLimit = first ? Math.max(1, query.limit - 1) : query.limit;
  const page = await listRestrictedKeys(caller.agentId, { limit: restrictedLimit, startKey: decodeCursor(scope, query.cursor) });
  const restricted = page.items.map((item) => toRestrictedKey(item, now));
  return { items: first ? [mainKeyOf(caller), ...restricted] : restricted, nextCursor: encodeCursor(scope, page.lastKey) };
}

export async function getKey(caller: Caller, keyId: string, now: Date) {
  if (keyId === caller.keyId) return mainKeyOf(caller);
  const item = await getRestrictedKey(caller.agentId, keyId);
  if (!item) throw notFound(keyId);
  return toRestrictedKey(item, now);
}

/**
 * Waits until no container can still serve the key from its cache: what the caller is told happened
 * (revoked, limits changed) is then true of every request that starts after the answer.
 */
async function outwaitKeyCaches(apiKeyHash: string): Promise<void> {
  forgetApiKey(apiKeyHash);
  const { RESTRICTED_KEY_CACHE_MS } = config();
  if (RESTRICTED_KEY_CACHE_MS > 0) await sleep(RESTRICTED_KEY_CACHE_MS);
}

export async function changeKey(caller: Caller, keyId: string, changes: KeyChanges, now: Date): Promise<RestrictedKey> {
  if (keyId === caller.keyId) throw fail.conflict('The main key has no scopes, limits or expiry to change: it is the agent’s identity key. Rotate it with POST /v1/agents/me/rotate-key', [{ path: 'kind', message: 'main' }]);
  const problems = [...limitsProblems(caller.role, changes.limits), ...expiryProblems(changes.expiresAt, now)];
  if (problems.length > 0) throw invalidFields(problems);
  const limits = changes.limits && Object.keys(changes.limits).length === 0 ? null : changes.limits;
  const outcome = await updateRestrictedKey(caller.agentId, keyId, { ...changes, limits, expiresAt: normalised(changes.expiresAt) }, now.toISOString());
  if ('refused' in outcome) {
    if (outcome.refused === 'not-found') throw notFound(keyId);
    throw fail.conflict(`Key ${keyId} is ${outcome.refused}: it can no longer change. Create a new key`, [{ path: 'status', message: `The key is ${outcome.refused}` }]);
  }
  await outwaitKeyCaches(outcome.key.apiKeyHash);
  return toRestrictedKey(outcome.key, now);
}

export async function revokeKey(caller: Caller, keyId: string, now: Date): Promise<RestrictedKey> {
  if (keyId === caller.keyId) throw fail.conflict('The main key cannot be revoked here: rotate it with POST /v1/agents/me/rotate-key, which replaces it at once', [{ path: 'kind', message: 'main' }]);
  const outcome = await revokeRestrictedKey(caller.agentId, keyId, now.toISOString());
  if ('refused' in outcome) throw notFound(keyId);
  // Also when it was revoked a moment ago by another request, which may still be waiting.
  await outwaitKeyCaches(outcome.key.apiKeyHash);
  return toRestrictedKey(outcome.key, now);
}
