// Agent profiles and their API-key items. The key item denormalises what authentication needs
// (agent id, role, plan, environment, and for a restricted key its scopes, limits, expiry and
// revocation) so that one GetItem authenticates a request. Restricted keys' own records (what the
// owner lists and manages) are in ./restricted-keys.ts.
import * as z from '../schemas/zod.ts';
import { Agent, Plan, Role } from '../schemas/agents.ts';
import { KeyLimits, ScopeName } from '../schemas/keys.ts';
import { ConditionRefused, defineEntity } from './entity.ts';
import { where } from './expressions.ts';
import { transactWrite, TransactionRefused } from './transactions.ts';

export const AgentEntity = defineEntity({
  name: 'agent',
  schema: z.extend(Agent, {
    apiKeyHash: z.string(),
    /** Number of webhook subscriptions; kept by the same transactions that add and remove them. */
    webhookCount: z.int().check(z.nonnegative()),
    /**
     * Restricted keys holding a slot (≤ 20): kept by the transactions that create, revoke and release
     * them. Absent on profiles written before restricted keys existed (none then).
     */
    restrictedKeyCount: z.optional(z.int().check(z.nonnegative())),
  }),
  key: ({ agentId }: { agentId: string }) => ({ pk: `AGENT#${agentId}`, sk: 'AGENT' }),
});
export type AgentItem = z.output<typeof AgentEntity.schema>;

export const ApiKeyEntity = defineEntity({
  name: 'apiKey',
  schema: z.object({
    agentId: z.string(),
    role: Role,
    plan: Plan,
    environment: z.enum(['test', 'live']),
    createdAt: z.string(),
    /** The key's id (`key_…`); main keys written before keys had ids have none (legacyKeyId gives one). */
    keyId: z.optional(z.string()),
    /** Absent: the main key. */
    kind: z.optional(z.enum(['main', 'restricted'])),
    // A restricted key's rules, copied from its record (./restricted-keys.ts) by every write of it.
    name: z.optional(z.string()),
    scopes: z.optional(z.array(ScopeName)),
    limits: z.optional(z.nullable(KeyLimits)),
    expiresAt: z.optional(z.nullable(z.string())),
    revokedAt: z.optional(z.nullable(z.string())),
  }),
  key: ({ apiKeyHash }: { apiKeyHash: string }) => ({ pk: `APIKEY#${apiKeyHash}`, sk: 'APIKEY' }),
});
export type ApiKeyItem = z.output<typeof ApiKeyEntity.schema>;

/** The API's view of an agent: the stored item without its key hash and counters. */
export function toAgent(item: AgentItem): Agent {
  const { apiKeyHash: _hash, webhookCount: _count, restrictedKeyCount: _keys, ...agent } = item;
  return agent;
}

function mainKeyRecord(agent: AgentItem, keyId: string): ApiKeyItem {
  return { agentId: agent.agentId, role: agent.role, plan: agent.plan, environment: agent.environment, createdAt: agent.updatedAt, keyId, kind: 'main' };
}

/** Creates the profile and its main key (`keyId`) together; neither exists without the other. */
export async function createAgent(agent: AgentItem, keyId: string): Promise<void> {
  await transactWrite([
    AgentEntity.putOperation('agent', agent, agent, where.notExists('pk')),
    ApiKeyEntity.putOperation('apiKey', mainKeyRecord(agent, keyId), agent, where.notExists('pk')),
  ]);
}

export function getAgentItem(agentId: string): Promise<AgentItem | undefined> {
  return AgentEntity.get({ agentId });
}

export function findApiKey(apiKeyHash: string): Promise<ApiKeyItem | undefined> {
  return ApiKeyEntity.get({ apiKeyHash });
}

export type ProfileChanges = Partial<Pick<Agent, 'name' | 'organization' | 'contactEmail'>>;

/** Applies profile changes; undefined when the agent does not exist. */
export async function updateAgentProfile(agentId: string, changes: ProfileChanges, now: string): Promise<AgentItem | undefined> {
  try {
    return await AgentEntity.update(
      { agentId },
      { set: { name: changes.name, organization: changes.organization, contactEmail: changes.contactEmail, updatedAt: now } },
      { allow: ['name', 'organization', 'contactEmail', 'updatedAt'], condition: where.exists('pk') },
    );
  } catch (error) {
    if (error instanceof ConditionRefused) return undefined;
    throw error;
  }
}

/**
 * Swaps the agent's key, all or nothing: the profile records the new hash, the key item of
 * `currentHash` is deleted (so that key stops authenticating) and the new one is written. Only the
 * holder of the current key wins: the profile must still record `currentHash`, and its key item must
 * still exist. Returns the rotated profile, or undefined when `currentHash` is no longer the agent's
 * key (another rotation won) or the agent does not exist.
 */
export async function replaceApiKey(agentId: string, currentHash: string, newKey: { hash: string; prefix: string; keyId: string }, now: string): Promise<AgentItem | undefined> {
  const { hash: newHash, prefix: newPrefix } = newKey;
  for (let attempt = 0; attempt < 3; attempt++) {
    const agent = await AgentEntity.get({ agentId }, { consistent: true });
    if (!agent || agent.apiKeyHash !== currentHash) return undefined;
    const rotated: AgentItem = { ...agent, apiKeyHash: newHash, apiKeyPrefix: newPrefix, updatedAt: now };
    try {
      await transactWrite([
        AgentEntity.updateOperation(
          'agent',
          { agentId },
          { set: { apiKeyHash: newHash, apiKeyPrefix: newPrefix, updatedAt: now } },
          {
            allow: ['apiKeyHash', 'apiKeyPrefix', 'updatedAt'],
            // The plan too: the new key item copies it, so an operator's plan change in between must not be lost.
            condition: AgentEntity.where.and(AgentEntity.where.eq('apiKeyHash', currentHash), AgentEntity.where.eq('plan', agent.plan)),
          },
        ),
        ApiKeyEntity.deleteOperation('oldKey', { apiKeyHash: currentHash }, where.exists('pk')),
        ApiKeyEntity.putOperation('newKey', mainKeyRecord(rotated, newKey.keyId), { apiKeyHash: newHash }, where.notExists('pk')),
      ]);
      return rotated;
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
      // Another rotation won (the key is gone); only a plan change in between is worth another try.
      if (error.has('oldKey') || error.current<AgentItem>('agent')?.apiKeyHash !== currentHash) return undefined;
    }
  }
  return undefined;
}

/**
 * A restricted key's record, in its agent's partition: what the owner lists, reads and manages. Its
 * hash item (ApiKeyEntity, kind `restricted`) carries the same rules for authentication; every write
 * changes both in one transaction (./restricted-keys.ts).
 */
export const RestrictedKeyEntity = defineEntity({
  name: 'restrictedKey',
  schema: z.object({
    keyId: z.string(),
    agentId: z.string(),
    name: z.string(),
    apiKeyPrefix: z.string(),
    apiKeyHash: z.string(),
    scopes: z.array(ScopeName),
    limits: z.nullable(KeyLimits),
    // Absent rather than null, so that write conditions can test them (attribute_not_exists).
    /** Absent: never expires. */
    expiresAt: z.optional(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
    /** Written at most once a minute per running container (./restricted-keys.ts, touchRestrictedKey). */
    lastUsedAt: z.optional(z.string()),
    revokedAt: z.optional(z.string()),
    /** The key holds one of the agent's 20 slots (restrictedKeyCount): until revoked, or released once expired. */
    holdsSlot: z.boolean(),
  }),
  key: ({ agentId, keyId }: { agentId: string; keyId: string }) => ({ pk: `AGENT#${agentId}`, sk: `KEY#${keyId}` }),
});
export type RestrictedKeyItem = z.output<typeof RestrictedKeyEntity.schema>;

/** The hash item of a restricted key: what one GetItem must tell authentication. */
export function restrictedKeyHashItem(record: RestrictedKeyItem, agent: Pick<AgentItem, 'role' | 'plan' | 'environment'>): ApiKeyItem {
  return {
    agentId: record.agentId,
    role: agent.role,
    plan: agent.plan,
    environment: agent.environment,
    createdAt: record.createdAt,
    keyId: record.keyId,
    kind: 'restricted',
    name: record.name,
    scopes: record.scopes,
    limits: record.limits,
    expiresAt: record.expiresAt ?? null,
    revokedAt: record.revokedAt ?? null,
  };
}

/** Every restricted key record of the agent, newest first (revoked and expired ones included). */
export async function allRestrictedKeys(agentId: string): Promise<RestrictedKeyItem[]> {
  const keys: RestrictedKeyItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await RestrictedKeyEntity.query({ partition: `AGENT#${agentId}`, sortKey: { beginsWith: 'KEY#' }, ascending: false, startKey, consistent: true });
    keys.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return keys;
}

/** Whether a restricted key can authenticate at `now`: not revoked, not expired. */
export function isLiveKey(key: { revokedAt?: string | null | undefined; expiresAt?: string | null | undefined }, now: string): boolean {
  return !key.revokedAt && (!key.expiresAt || key.expiresAt > now);
}

/**
 * Operator action: changes the plan on the profile, on its main key item and on the hash items of its
 * live restricted keys, together. Undefined when the agent does not exist. A rotation, or a restricted
 * key created or revoked meanwhile (each changes the profile's key hash or key count), makes it read again.
 */
export async function setAgentPlan(agentId: string, plan: Plan, now: string): Promise<AgentItem | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const agent = await AgentEntity.get({ agentId }, { consistent: true });
    if (!agent) return undefined;
    // Only keys that can still authenticate carry a plan that matters; expired ones never come back.
    const restricted = (await allRestrictedKeys(agentId)).filter((key) => isLiveKey(key, now));
    const { and, eq, notExists } = AgentEntity.where;
    const keyCount = agent.restrictedKeyCount === undefined ? notExists('restrictedKeyCount') : eq('restrictedKeyCount', agent.restrictedKeyCount);
    try {
      await transactWrite([
        AgentEntity.updateOperation(
          'agent',
          { agentId },
          { set: { plan, updatedAt: now } },
          { allow: ['plan', 'updatedAt'], condition: and(eq('apiKeyHash', agent.apiKeyHash), keyCount) },
        ),
        ApiKeyEntity.updateOperation(
          'apiKey',
          { apiKeyHash: agent.apiKeyHash },
          { set: { plan } },
          { allow: ['plan'], condition: where.exists('pk') },
        ),
        ...restricted.map((key, index) =>
          ApiKeyEntity.updateOperation(`restrictedKey${index}`, { apiKeyHash: key.apiKeyHash }, { set: { plan } }, { allow: ['plan'], condition: where.exists('pk') }),
        ),
      ]);
      return { ...agent, plan, updatedAt: now };
    } catch (error) {
      // The key was rotated, or a restricted key came or went, between the read and the write: read again.
      if (!(error instanceof TransactionRefused)) throw error;
    }
  }
  throw new Error(`Could not set the plan of ${agentId}: its keys kept changing`);
}
