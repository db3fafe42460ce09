// Agent profiles and their API-key items. The key item denormalises what authentication needs
// (agent id, role, plan, environment) so that one GetItem authenticates a request.
import * as z from '../schemas/zod.ts';
import { Agent, Plan, Role } from '../schemas/agents.ts';
import { ConditionRefused, defineEntity } from './entity.ts';
import { where } from './expressions.ts';
import { transactWrite, TransactionRefused } from './transactions.ts';

export const AgentEntity = defineEntity({
  name: 'agent',
  schema: z.extend(Agent, {
    apiKeyHash: z.string(),
    /** Number of webhook subscriptions; kept by the same transactions that add and remove them. */
    webhookCount: z.int().check(z.nonnegative()),
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
  }),
  key: ({ apiKeyHash }: { apiKeyHash: string }) => ({ pk: `APIKEY#${apiKeyHash}`, sk: 'APIKEY' }),
});
export type ApiKeyItem = z.output<typeof ApiKeyEntity.schema>;

/** The API's view of an agent: the stored item without its key hash and counters. */
export function toAgent(item: AgentItem): Agent {
  const { apiKeyHash: _hash, webhookCount: _count, ...agent } = item;
  return agent;
}

function apiKeyRecord(agent: AgentItem): ApiKeyItem {
  return { agentId: agent.agentId, role: agent.role, plan: agent.plan, environment: agent.environment, createdAt: agent.updatedAt };
}

/** Creates the profile and its key together; neither exists without the other. */
export async function createAgent(agent: AgentItem): Promise<void> {
  await transactWrite([
    AgentEntity.putOperation('agent', agent, agent, where.notExists('pk')),
    ApiKeyEntity.putOperation('apiKey', apiKeyRecord(agent), agent, where.notExists('pk')),
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
export async function replaceApiKey(agentId: string, currentHash: string, newHash: string, newPrefix: string, now: string): Promise<AgentItem | undefined> {
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
        ApiKeyEntity.putOperation('newKey', apiKeyRecord(rotated), { apiKeyHash: newHash }, where.notExists('pk')),
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
 * Operator action: changes the plan on the profile and on its key item together. Undefined when the
 * agent does not exist; a rotation racing it is retried with the fresh key.
 */
export async function setAgentPlan(agentId: string, plan: Plan, now: string): Promise<AgentItem | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const agent = await AgentEntity.get({ agentId }, { consistent: true });
    if (!agent) return undefined;
    try {
      await transactWrite([
        AgentEntity.updateOperation(
          'agent',
          { agentId },
          { set: { plan, updatedAt: now } },
          { allow: ['plan', 'updatedAt'], condition: AgentEntity.where.eq('apiKeyHash', agent.apiKeyHash) },
        ),
        ApiKeyEntity.updateOperation(
          'apiKey',
          { apiKeyHash: agent.apiKeyHash },
          { set: { plan } },
          { allow: ['plan'], condition: where.exists('pk') },
        ),
      ]);
      return { ...agent, plan, updatedAt: now };
    } catch (error) {
      // The key was rotated between the read and the write: read again.
      if (!(error instanceof TransactionRefused)) throw error;
    }
  }
  throw new Error(`Could not set the plan of ${agentId}: its key kept changing`);
}
