// Agent use cases, shared by the API and the operator command.
import { config } from '../config.ts';
import { createAgent, getAgentItem, replaceApiKey, toAgent, updateAgentProfile, type AgentItem, type ProfileChanges } from '../data/agents.ts';
import { fail } from '../failures.ts';
import { newId } from '../ids.ts';
import type { Agent, AgentProfile } from '../schemas/agents.ts';
import type { CallingKey } from '../schemas/keys.ts';
import { forgetApiKey } from './api-key-cache.ts';
import { generateApiKey, hashApiKey, visiblePrefix, type Caller } from './api-keys.ts';

export interface Registration {
  name: string;
  role: Agent['role'];
  organization: Agent['organization'];
  contactEmail: string;
}

/** Registers an agent; `agentId` and `keyId` fix its ids (the sandbox's house agents), which must not exist yet. */
export async function registerAgent(input: Registration, now: Date, options: { agentId?: string; keyId?: string } = {}): Promise<{ agent: Agent; apiKey: string }> {
  const { STAGE } = config();
  const apiKey = generateApiKey(STAGE);
  const timestamp = now.toISOString();
  const item: AgentItem = {
    agentId: options.agentId ?? newId('agent'),
    name: input.name,
    role: input.role,
    organization: input.organization,
    contactEmail: input.contactEmail,
    plan: 'free',
    environment: STAGE,
    apiKeyPrefix: visiblePrefix(apiKey),
    apiKeyHash: hashApiKey(apiKey),
    webhookCount: 0,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  await createAgent(item, options.keyId ?? newId('key'));
  return { agent: toAgent(item), apiKey };
}

export async function getAgentProfile(agentId: string): Promise<Agent> {
  const agent = await getAgentItem(agentId);
  if (!agent) throw fail.notFound('Agent not found');
  return toAgent(agent);
}

/** The key that made the request, as its holder may see it: what it may do and until when (never its secret). */
export function callingKeyOf(caller: Pick<Caller, 'keyId' | 'keyKind' | 'keyName' | 'scopes' | 'limits' | 'expiresAt'>): CallingKey {
  return {
    keyId: caller.keyId,
    kind: caller.keyKind,
    name: caller.keyName,
    scopes: caller.scopes === null ? null : [...caller.scopes],
    limits: caller.limits,
    expiresAt: caller.expiresAt,
  };
}

/** GET /v1/agents/me: the caller's agent and the key it called with. */
export async function getCallerProfile(caller: Caller): Promise<AgentProfile> {
  return { ...(await getAgentProfile(caller.agentId)), key: callingKeyOf(caller) };
}

export async function updateProfile(agentId: string, changes: ProfileChanges, now: Date): Promise<Agent> {
  const agent = await updateAgentProfile(agentId, changes, now.toISOString());
  if (!agent) throw fail.notFound('Agent not found');
  return toAgent(agent);
}

async function rotate(agentId: string, currentHash: string, now: Date): Promise<{ agent: Agent; apiKey: string } | undefined> {
  const apiKey = generateApiKey(config().STAGE);
  const rotated = await replaceApiKey(agentId, currentHash, { hash: hashApiKey(apiKey), prefix: visiblePrefix(apiKey), keyId: newId('key') }, now.toISOString());
  if (!rotated) return undefined;
  forgetApiKey(currentHash); // this container stops accepting the old key at once
  return { agent: toAgent(rotated), apiKey };
}

/**
 * The caller replaces the key it authenticated with. Only that key can be rotated: if another
 * rotation replaced it first, this one changes nothing and fails as unauthenticated (the caller's key
 * is gone), so of N racing rotations exactly one succeeds and the key it hands out works.
 */
export async function rotateOwnKey(agentId: string, presentedKeyHash: string, now: Date): Promise<{ agent: Agent; apiKey: string }> {
  const rotated = await rotate(agentId, presentedKeyHash, now);
  if (!rotated) throw fail.unauthenticated('Invalid API Key');
  return rotated;
}

/** Operator action for a lost key: replaces whatever key the agent has now. Undefined when there is no such agent. */
export async function replaceLostKey(agentId: string, now: Date): Promise<{ agent: Agent; apiKey: string } | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getAgentItem(agentId);
    if (!current) return undefined;
    const rotated = await rotate(agentId, current.apiKeyHash, now);
    if (rotated) return rotated;
  }
  throw new Error(`Could not replace the key of ${agentId}: it kept changing`);
}
