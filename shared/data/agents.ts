// Agent profiles and their API-key index. The key item denormalises what authentication needs
// (agent id, role, plan) so that one GetItem authenticates a request.
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Agent, Plan, Role } from '../schemas/agents.ts';
import { documentClient, tableName } from './client.ts';
import { setChangedFields } from './expressions.ts';
import { failedTransactionConditions, isConditionFailure } from './conditions.ts';

export const agentKeys = {
  agent: (agentId: string) => ({ pk: `AGENT#${agentId}`, sk: 'AGENT' }),
  apiKey: (apiKeyHash: string) => ({ pk: `APIKEY#${apiKeyHash}`, sk: 'APIKEY' }),
};

export interface AgentItem extends Agent {
  apiKeyHash: string;
  /** Number of webhook subscriptions; kept by the same transactions that add and remove them. */
  webhookCount: number;
}

export interface ApiKeyItem {
  agentId: string;
  role: Role;
  plan: Plan;
  environment: 'test' | 'live';
  createdAt: string;
}

export function toAgent(item: AgentItem | Record<string, unknown>): Agent {
  const { agentId, role, name, organization, contactEmail, plan, environment, apiKeyPrefix, createdAt, updatedAt } =
    item as AgentItem;
  return { agentId, role, name, organization, contactEmail, plan, environment, apiKeyPrefix, createdAt, updatedAt };
}

function apiKeyItem(agent: AgentItem): Record<string, unknown> {
  return {
    ...agentKeys.apiKey(agent.apiKeyHash),
    entity: 'apiKey',
    agentId: agent.agentId,
    role: agent.role,
    plan: agent.plan,
    environment: agent.environment,
    createdAt: agent.updatedAt,
  } satisfies Record<string, unknown> & ApiKeyItem;
}

/** Creates the profile and its key together; neither exists without the other. */
export async function createAgent(agent: AgentItem): Promise<void> {
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...agentKeys.agent(agent.agentId), entity: 'agent', ...agent },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Put: { TableName: tableName(), Item: apiKeyItem(agent), ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    }),
  );
}

export async function getAgentItem(agentId: string): Promise<AgentItem | undefined> {
  const result = await documentClient.send(new GetCommand({ TableName: tableName(), Key: agentKeys.agent(agentId) }));
  return result.Item as AgentItem | undefined;
}

export async function findApiKey(apiKeyHash: string): Promise<ApiKeyItem | undefined> {
  const result = await documentClient.send(new GetCommand({ TableName: tableName(), Key: agentKeys.apiKey(apiKeyHash) }));
  return result.Item as ApiKeyItem | undefined;
}

export type ProfileChanges = Partial<Pick<Agent, 'name' | 'organization' | 'contactEmail'>>;

/** Applies profile changes; undefined when the agent does not exist. */
export async function updateAgentProfile(agentId: string, changes: ProfileChanges, now: string): Promise<Agent | undefined> {
  try {
    const result = await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: agentKeys.agent(agentId),
        ...setChangedFields(changes, now),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toAgent(result.Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * Swaps the agent's key: the old key item is deleted (so the old key stops authenticating), the new
 * one is written, and the profile records the new hash — all or nothing. The condition on the old hash
 * makes two concurrent rotations safe: only one of them wins.
 * Returns false when the current key is no longer `expectedOldHash` (someone rotated first).
 */
export async function replaceApiKey(agent: AgentItem, newApiKeyHash: string, newPrefix: string, now: string): Promise<boolean> {
  const rotated: AgentItem = { ...agent, apiKeyHash: newApiKeyHash, apiKeyPrefix: newPrefix, updatedAt: now };
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: agentKeys.agent(agent.agentId),
              UpdateExpression: 'SET apiKeyHash = :new, apiKeyPrefix = :prefix, updatedAt = :now',
              ConditionExpression: 'apiKeyHash = :old',
              ExpressionAttributeValues: { ':new': newApiKeyHash, ':prefix': newPrefix, ':now': now, ':old': agent.apiKeyHash },
            },
          },
          { Delete: { TableName: tableName(), Key: agentKeys.apiKey(agent.apiKeyHash) } },
          { Put: { TableName: tableName(), Item: apiKeyItem(rotated), ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    return true;
  } catch (error) {
    failedTransactionConditions(error);
    return false;
  }
}

/** Operator action: changes the plan on the profile and on the key item together. */
export async function setAgentPlan(agentId: string, plan: Plan, now: string, attempt = 1): Promise<Agent | undefined> {
  const agent = await getAgentItem(agentId);
  if (!agent) return undefined;
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: agentKeys.agent(agentId),
              UpdateExpression: 'SET #plan = :plan, updatedAt = :now',
              ConditionExpression: 'apiKeyHash = :hash',
              ExpressionAttributeNames: { '#plan': 'plan' },
              ExpressionAttributeValues: { ':plan': plan, ':now': now, ':hash': agent.apiKeyHash },
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: agentKeys.apiKey(agent.apiKeyHash),
              UpdateExpression: 'SET #plan = :plan',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#plan': 'plan' },
              ExpressionAttributeValues: { ':plan': plan },
            },
          },
        ],
      }),
    );
  } catch (error) {
    failedTransactionConditions(error);
    // The key was rotated between the read and the write: read again and retry.
    if (attempt >= 3) throw new Error(`Could not set the plan of ${agentId}: its key keeps changing`, { cause: error });
    return setAgentPlan(agentId, plan, now, attempt + 1);
  }
  return toAgent({ ...agent, plan, updatedAt: now });
}
