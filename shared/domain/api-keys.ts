// API key material: generation, format and hashing. Only the SHA-256 of a key is ever stored;
// keys carry 238 bits of randomness, so a fast unsalted hash cannot be reversed by guessing.
import { createHash, randomInt } from 'node:crypto';
import { apiKeyPrefixFor, type Config } from '../config.ts';

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

export type KeyCheck = { ok: true } | { ok: false };

/** Is the string a well-formed key of this stack's environment? (Others get "Invalid API Key".) */
export function isKeyOfEnvironment(apiKey: string, stage: Config['STAGE']): boolean {
  return KEY_FORMAT.test(apiKey) && apiKey.startsWith(apiKeyPrefixFor(stage));
}

export function visiblePrefix(apiKey: string): string {
  return apiKey.slice(0, VISIBLE_PREFIX_LENGTH);
}
