import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullJitterBackoffMs } from '../../shared/backoff.ts';
import { COLLISION_ATTEMPTS } from '../../shared/data/client.ts';

describe('fullJitterBackoffMs', () => {
  it('waits a whole number of ms under min(1 s, 25 × 2^attempt), the full range reachable', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        const wait = fullJitterBackoffMs(attempt, () => random);
        expect(Number.isInteger(wait)).toBe(true);
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(Math.min(1000, 25 * 2 ** attempt));
      }),
    );
    expect(fullJitterBackoffMs(1, () => 0)).toBe(0);
    expect(fullJitterBackoffMs(2, () => 0.999)).toBe(99);
    expect(fullJitterBackoffMs(12, () => 0.999)).toBe(999);
  });

  it('keeps the waits before the retries of one collision under 150 ms in all', () => {
    let worst = 0;
    for (let attempt = 1; attempt < COLLISION_ATTEMPTS; attempt++) worst += fullJitterBackoffMs(attempt, () => 0.9999);
    expect(worst).toBeLessThan(150);
  });
});
