import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collisionBackoffMs, COLLISION_ATTEMPTS } from '../../shared/data/client.ts';

describe('collisionBackoffMs', () => {
  it('waits a whole number of ms under 25 × 2^attempt, the full range reachable', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: COLLISION_ATTEMPTS - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        const wait = collisionBackoffMs(attempt, () => random);
        expect(Number.isInteger(wait)).toBe(true);
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(25 * 2 ** attempt);
      }),
    );
    expect(collisionBackoffMs(1, () => 0)).toBe(0);
    expect(collisionBackoffMs(2, () => 0.999)).toBe(99);
  });

  it('keeps the waits before the retries of one collision under 150 ms in all', () => {
    let worst = 0;
    for (let attempt = 1; attempt < COLLISION_ATTEMPTS; attempt++) worst += collisionBackoffMs(attempt, () => 0.9999);
    expect(worst).toBeLessThan(150);
  });
});
