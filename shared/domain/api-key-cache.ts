// In-memory cache of resolved API keys, per container. Bound: an entry is served for at most
// API_KEY_CACHE_SECONDS (≤ 30 s). So a key revoked by rotation keeps working for up to 30 s on
// *other* warm containers; the container that rotates forgets the old key at once (forget()).
import type { ApiKeyItem } from '../data/agents.ts';

const MAX_ENTRIES = 10_000;
const entries = new Map<string, { item: ApiKeyItem; expiresAt: number }>();

export function cachedApiKey(hash: string, nowMs: number): ApiKeyItem | undefined {
  const entry = entries.get(hash);
  if (!entry) return undefined;
  if (entry.expiresAt <= nowMs) {
    entries.delete(hash);
    return undefined;
  }
  return entry.item;
}

export function cacheApiKey(hash: string, item: ApiKeyItem, nowMs: number, ttlSeconds: number): void {
  if (ttlSeconds <= 0) return;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string); // oldest first
  entries.set(hash, { item, expiresAt: nowMs + ttlSeconds * 1000 });
}

export function forgetApiKey(hash: string): void {
  entries.delete(hash);
}

export function clearApiKeyCache(): void {
  entries.clear();
}
