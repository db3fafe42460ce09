// Restricted keys (contract §5.1): each is two items written together — its record in the agent's
// partition (`AGENT#<id>` / `KEY#<keyId>`: what the owner lists and manages) and its hash item
// (`APIKEY#<sha256>`: what authenticates a request in one GetItem, with the scopes, limits, expiry and
// revocation the pipeline needs). The profile's restrictedKeyCount, changed in the same transactions,
// holds the limit of 20 active keys; an expired key keeps its slot until a creation that needs the slot
// releases it. Access patterns: docs/data-model.md.
import { MAX_ACTIVE_RESTRICTED_KEYS, type KeyLimits, type Scope } from '../schemas/keys.ts';
import { AgentEntity, ApiKeyEntity, RestrictedKeyEntity, allRestrictedKeys, restrictedKeyHashItem, type AgentItem, type RestrictedKeyItem } from './agents.ts';
import { ConditionRefused } from './entity.ts';
import { where } from './expressions.ts';
import { transactWrite, TransactionRefused, type TransactOperation } from './transactions.ts';

export { allRestrictedKeys, isLiveKey, type RestrictedKeyItem } from './agents.ts';

export type CreateKeyOutcome = { created: RestrictedKeyItem } | { refused: 'limit' | 'no-agent' };

/** The profile's slot count as a condition value: absent on profiles from before restricted keys. */
const slotsOf = (agent: AgentItem) => agent.restrictedKeyCount ?? 0;

/**
 * Creates the key's record and hash item, taking one of the agent's slots. The hash item copies the
 * agent's role, plan and environment as read, on the condition that the plan has not changed since
 * (an operator's plan change in between is not lost). When every slot is taken, expired keys that still
 * hold one give it back in the same transaction (`released`), so expired keys never lock the owner out.
 */
export async function createRestrictedKey(record: RestrictedKeyItem, now: string): Promise<CreateKeyOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const agent = await AgentEntity.get({ agentId: record.agentId }, { consistent: true });
    if (!agent) return { refused: 'no-agent' };
    // Expired keys holding a slot are released only when the slots run out (one Query, rarely).
    const expired = slotsOf(agent) >= MAX_ACTIVE_RESTRICTED_KEYS
      ? (await allRestrictedKeys(record.agentId)).filter((key) => key.holdsSlot && key.expiresAt !== undefined && key.expiresAt <= now)
      : [];
    if (slotsOf(agent) - expired.length >= MAX_ACTIVE_RESTRICTED_KEYS) return { refused: 'limit' };
    const { and, eq, or, notExists, lt } = AgentEntity.where;
    const released: TransactOperation[] = expired.map((key, index) =>
      RestrictedKeyEntity.updateOperation(`released${index}`, key, { set: { holdsSlot: false, updatedAt: now } }, {
        allow: ['holdsSlot', 'updatedAt'],
        condition: RestrictedKeyEntity.where.and(RestrictedKeyEntity.where.eq('holdsSlot', true), RestrictedKeyEntity.where.le('expiresAt', now)),
      }),
    );
    try {
      await transactWrite([
        AgentEntity.updateOperation(
          'agent',
          { agentId: record.agentId },
          { add: { restrictedKeyCount: 1 - expired.length } },
          {
            allow: ['restrictedKeyCount'],
            condition: and(
              eq('plan', agent.plan),
              or(notExists('restrictedKeyCount'), lt('restrictedKeyCount', MAX_ACTIVE_RESTRICTED_KEYS + expired.length)),
            ),
          },
        ),
        RestrictedKeyEntity.putOperation('record', record, record, where.notExists('pk')),
        ApiKeyEntity.putOperation('hash', restrictedKeyHashItem(record, agent), { apiKeyHash: record.apiKeyHash }, where.notExists('pk')),
        ...released,
      ]);
      return { created: record };
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
      if (error.has('agent') && !error.current('agent')) return { refused: 'no-agent' };
      // The plan changed, another key took the last slot, or an expired key was released meanwhile: read again.
    }
  }
  return { refused: 'limit' };
}

export function getRestrictedKey(agentId: string, keyId: string): Promise<RestrictedKeyItem | undefined> {
  return RestrictedKeyEntity.get({ agentId, keyId }, { consistent: true });
}

/** A page of the agent's restricted key records, newest first. */
export function listRestrictedKeys(agentId: string, options: { limit: number; startKey?: Record<string, unknown> | undefined }) {
  return RestrictedKeyEntity.query({ partition: `AGENT#${agentId}`, sortKey: { beginsWith: 'KEY#' }, ascending: false, limit: options.limit, startKey: options.startKey, consistent: true });
}

/** What an owner may change on a restricted key. */
export interface KeyChanges {
  name?: string | undefined;
  scopes?: Scope[] | undefined;
  /** null removes every limit. */
  limits?: KeyLimits | null | undefined;
  /** null: never expires. */
  expiresAt?: string | null | undefined;
}

export type KeyChangeOutcome = { key: RestrictedKeyItem } | { refused: 'not-found' | 'revoked' | 'expired' };

const { and: keyAnd, eq: keyEq, gt: keyGt, exists: keyExists, notExists: keyNotExists, or: keyOr } = RestrictedKeyEntity.where;

/** The record may change: it exists, is not revoked and has not expired at `now`. */
const changeable = (now: string) => keyAnd(keyExists('pk'), keyNotExists('revokedAt'), keyOr(keyNotExists('expiresAt'), keyGt('expiresAt', now)));

function refusalOf(current: RestrictedKeyItem | undefined, now: string): 'not-found' | 'revoked' | 'expired' {
  if (!current) return 'not-found';
  if (current.revokedAt) return 'revoked';
  if (current.expiresAt !== undefined && current.expiresAt <= now) return 'expired';
  return 'not-found';
}

/** Changes a live key's record and hash item together; refused when the key is unknown, revoked or expired. */
export async function updateRestrictedKey(agentId: string, keyId: string, changes: KeyChanges, now: string): Promise<KeyChangeOutcome> {
  const current = await getRestrictedKey(agentId, keyId);
  if (!current || current.revokedAt || (current.expiresAt !== undefined && current.expiresAt <= now)) return { refused: refusalOf(current, now) };
  const { expiresAt: _expiresAt, ...rest } = current;
  const expiresAt = changes.expiresAt === undefined ? current.expiresAt : (changes.expiresAt ?? undefined);
  const next: RestrictedKeyItem = {
    ...rest,
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.scopes !== undefined ? { scopes: changes.scopes } : {}),
    ...(changes.limits !== undefined ? { limits: changes.limits } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    updatedAt: now,
  };
  try {
    await transactWrite([
      RestrictedKeyEntity.updateOperation(
        'record',
        current,
        { set: { name: next.name, scopes: next.scopes, limits: next.limits, expiresAt, updatedAt: now }, ...(expiresAt === undefined ? { remove: ['expiresAt'] as const } : {}) },
        { allow: ['name', 'scopes', 'limits', 'expiresAt', 'updatedAt'], condition: changeable(now) },
      ),
      ApiKeyEntity.updateOperation('hash', { apiKeyHash: current.apiKeyHash }, { set: { name: next.name, scopes: next.scopes, limits: next.limits, expiresAt: expiresAt ?? null } }, {
        allow: ['name', 'scopes', 'limits', 'expiresAt'],
        condition: where.exists('pk'),
      }),
    ]);
    return { key: next };
  } catch (error) {
    if (error instanceof TransactionRefused && error.has('record')) return { refused: refusalOf(error.current<RestrictedKeyItem>('record'), now) };
    throw error;
  }
}

export type RevokeOutcome = { key: RestrictedKeyItem; revokedNow: boolean } | { refused: 'not-found' };

/**
 * Revokes a key: its record and its hash item say so from `now` on, and its slot is given back.
 * Revoking a revoked key changes nothing and answers it as it is.
 */
export async function revokeRestrictedKey(agentId: string, keyId: string, now: string): Promise<RevokeOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getRestrictedKey(agentId, keyId);
    if (!current) return { refused: 'not-found' };
    if (current.revokedAt) return { key: current, revokedNow: false };
    const operations: TransactOperation[] = [
      RestrictedKeyEntity.updateOperation('record', current, { set: { revokedAt: now, holdsSlot: false, updatedAt: now } }, {
        allow: ['revokedAt', 'holdsSlot', 'updatedAt'],
        condition: keyAnd(keyNotExists('revokedAt'), keyEq('holdsSlot', current.holdsSlot)),
      }),
      ApiKeyEntity.updateOperation('hash', { apiKeyHash: current.apiKeyHash }, { set: { revokedAt: now } }, { allow: ['revokedAt'], condition: where.exists('pk') }),
    ];
    if (current.holdsSlot) {
      operations.push(
        AgentEntity.updateOperation('agent', { agentId }, { add: { restrictedKeyCount: -1 } }, { allow: ['restrictedKeyCount'], condition: AgentEntity.where.gt('restrictedKeyCount', 0) }),
      );
    }
    try {
      await transactWrite(operations);
      return { key: { ...current, revokedAt: now, holdsSlot: false, updatedAt: now }, revokedNow: true };
    } catch (error) {
      // Revoked, or its slot released, meanwhile: read again.
      if (!(error instanceof TransactionRefused)) throw error;
    }
  }
  const settled = await getRestrictedKey(agentId, keyId);
  return settled ? { key: settled, revokedNow: false } : { refused: 'not-found' };
}

/**
 * Records that the key authenticated a request at `now` (lastUsedAt never moves back). Called at most
 * once a minute per key and running container, so that authentication stays one read per request.
 */
export async function touchRestrictedKey(agentId: string, keyId: string, now: string): Promise<void> {
  const { and, exists, or, notExists, lt } = RestrictedKeyEntity.where;
  try {
    await RestrictedKeyEntity.update({ agentId, keyId }, { set: { lastUsedAt: now } }, {
      allow: ['lastUsedAt'],
      condition: and(exists('pk'), or(notExists('lastUsedAt'), lt('lastUsedAt', now))),
    });
  } catch (error) {
    if (!(error instanceof ConditionRefused)) throw error;
  }
}
