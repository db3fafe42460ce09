import { afterEach, describe, expect, it } from 'vitest';
import { cacheApiKey, cachedApiKey, clearApiKeyCache, forgetApiKey } from '../../shared/domain/api-key-cache.ts';

const item = { agentId: 'agt_1', role: 'buyer', plan: 'free', environment: 'test', createdAt: '' } as const;

afterEach(clearApiKeyCache);

describe('API key cache', () => {
  it('serves an entry for at most its lifetime (milliseconds)', () => {
    cacheApiKey('h', item, 1_000, 30_000);
    expect(cachedApiKey('h', 1_000)).toEqual(item);
    expect(cachedApiKey('h', 30_999)).toEqual(item);
    expect(cachedApiKey('h', 31_000)).toBeUndefined();
  });

  it('forgets a key at once when told', () => {
    cacheApiKey('h', item, 0, 30_000);
    forgetApiKey('h');
    expect(cachedApiKey('h', 1)).toBeUndefined();
  });

  it('caches nothing with a lifetime of 0', () => {
    cacheApiKey('h', item, 0, 0);
    expect(cachedApiKey('h', 0)).toBeUndefined();
  });
});
