// API keys: generation, format, hashing, and resolving a presented key to its agent. Only the SHA-256
// of a key is ever stored; keys carry 238 bits of randomness, so a fast unsalted hash cannot be
// reversed by guessing.
import { createHash, randomInt } from 'node:crypto';
import { apiKeyPrefixFor, config, type Config } from '../config.ts';
import { findApiKey } from '../data/agents.ts';
import type { Plan, Role } from '../schemas/agents.ts';
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

/** The agent a live key belongs to. */
export interface Caller {
  agentId: string;
  role: Role;
  plan: Plan;
  apiKeyHash: string;
}

/**
 * The agent behind a presented key, or undefined when the key is malformed, of the other environment,
 * unknown or revoked. Served from the ≤ 30 s key cache when possible (docs/decisions/key-cache.md).
 */
export async function resolveApiKey(apiKey: string, now: Date): Promise<Caller | undefined> {
  const { STAGE, API_KEY_CACHE_SECONDS } = config();
  if (!isKeyOfEnvironment(apiKey, STAGE)) return undefined;
  const hash = hashApiKey(apiKey);
  const nowMs = now.getTime();
  let item = cachedApiKey(hash, nowMs);
  if (!item) {
    item = await findApiKey(hash);
    if (item) cacheApiKey(hash, item, nowMs, API_KEY_CACHE_SECONDS);
  }
  if (!item || item.environment !== STAGE) return undefined;
  return { agentId: item.agentId, role: item.role, plan: item.plan, apiKeyHash: hash };
}
