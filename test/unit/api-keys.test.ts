import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isKeyOfEnvironment, visiblePrefix } from '../../shared/domain/api-keys.ts';

describe('API keys', () => {
  it('are the environment prefix plus 40 random base62 characters', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('test')));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^mk_test_[0-9A-Za-z]{40}$/);
    expect(generateApiKey('live')).toMatch(/^mk_live_[0-9A-Za-z]{40}$/);
  });

  it('are accepted only by their own environment', () => {
    const test = generateApiKey('test');
    const live = generateApiKey('live');
    expect(isKeyOfEnvironment(test, 'test')).toBe(true);
    expect(isKeyOfEnvironment(test, 'live')).toBe(false);
    expect(isKeyOfEnvironment(live, 'live')).toBe(true);
    expect(isKeyOfEnvironment(live, 'test')).toBe(false);
    for (const malformed of ['mk_test_short', 'mk_test_' + 'a'.repeat(31), 'mk_test_' + '!'.repeat(40), 'sk_test_' + 'a'.repeat(40), '']) {
      expect(isKeyOfEnvironment(malformed, 'test')).toBe(false);
    }
  });

  it('are stored as a SHA-256 hash and shown by their first 12 characters', () => {
    const key = generateApiKey('test');
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toContain(key.slice(8));
    expect(visiblePrefix(key)).toBe(key.slice(0, 12));
    expect(visiblePrefix(key)).toHaveLength(12);
  });
});
