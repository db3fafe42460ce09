// Agent use cases shared by the API and the operator command.
import { config } from '../config.ts';
import { createAgent, getAgentItem, replaceApiKey, toAgent, type AgentItem } from '../data/agents.ts';
import { newId } from '../ids.ts';
import type { Agent } from '../schemas/agents.ts';
import { generateApiKey, hashApiKey, visiblePrefix } from './api-keys.ts';
import { forgetApiKey } from '../http/api-key-cache.ts';

export interface Registration {
  name: string;
  role: Agent['role'];
  organization: Agent['organization'];
  contactEmail: string;
}

export async function registerAgent(input: Registration, now: Date): Promise<{ agent: Agent; apiKey: string }> {
  const { STAGE } = config();
  const apiKey = generateApiKey(STAGE);
  const timestamp = now.toISOString();
  const item: AgentItem = {
    agentId: newId('agent'),
    ...input,
    plan: 'free',
    environment: STAGE,
    apiKeyPrefix: visiblePrefix(apiKey),
    apiKeyHash: hashApiKey(apiKey),
    webhookCount: 0,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  await createAgent(item);
  return { agent: toAgent(item), apiKey };
}

/**
 * Issues a new key and revokes the current one in one transaction. If another rotation wins the race,
 * this one reads the agent again and rotates the winner's key: the caller always ends with a key that
 * works. Undefined when the agent does not exist.
 */
export async function rotateAgentKey(agentId: string, now: Date): Promise<{ agent: Agent; apiKey: string } | undefined> {
  const { STAGE } = config();
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getAgentItem(agentId);
    if (!current) return undefined;
    const apiKey = generateApiKey(STAGE);
    const hash = hashApiKey(apiKey);
    const prefix = visiblePrefix(apiKey);
    if (await replaceApiKey(current, hash, prefix, now.toISOString())) {
      forgetApiKey(current.apiKeyHash); // this container stops accepting the old key at once
      return { agent: toAgent({ ...current, apiKeyPrefix: prefix, updatedAt: now.toISOString() }), apiKey };
    }
  }
  throw new Error(`Could not rotate the key of ${agentId}: concurrent rotations kept winning`);
}
