// In-memory cache of resolved API keys, per container, each entry for at most its own time to live:
// a main key up to API_KEY_CACHE_SECONDS (≤ 30 s), so a key revoked by rotation keeps working for up
// to 30 s on *other* warm containers; a restricted key up to RESTRICTED_KEY_CACHE_MS (≤ 1 s), which
// its revocation waits out before it answers. The container that rotates or revokes forgets the key
// at once (forgetApiKey).
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

export function cacheApiKey(hash: string, item: ApiKeyItem, nowMs: number, ttlMs: number): void {
  if (ttlMs <= 0) return;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string); // oldest first
  entries.set(hash, { item, expiresAt: nowMs + ttlMs });
}

export function forgetApiKey(hash: string): void {
  entries.delete(hash);
}

export function clearApiKeyCache(): void {
  entries.clear();
}
