// The one bounded-concurrency helper: never more than its limit at once, every item once, in order of
// start, and after a failure nothing new starts while what runs is awaited before the failure is thrown.
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { chunked, forEachConcurrently } from '../../shared/concurrency.ts';
import { untilProcessed } from '../../shared/data/unprocessed.ts';

describe('forEachConcurrently', () => {
  it('runs every item once, at most `limit` at once and exactly that many when there is enough work', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), async (delays, limit) => {
        let running = 0;
        let peak = 0;
        const started: number[] = [];
        await forEachConcurrently(delays, limit, async (delay, index) => {
          started.push(index);
          running++;
          peak = Math.max(peak, running);
          await sleep(delay);
          running--;
        });
        expect(started).toEqual(delays.map((_, index) => index));
        expect(peak).toBe(Math.min(limit, delays.length));
        expect(running).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it('starts nothing after a failure, lets what runs finish, then throws the first failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const outcome = forEachConcurrently([0, 1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      started.push(item);
      if (item === 1) {
        await sleep(5);
        throw new Error('first');
      }
      if (item === 2) {
        await sleep(15);
        throw new Error('second');
      }
      await sleep(item === 0 ? 1 : 30);
      finished.push(item);
    });
    await expect(outcome).rejects.toThrow('first');
    // 0 finished at 1 ms and its lane took 3; 1 failed at 5 ms: nothing after 3 started.
    expect(started).toEqual([0, 1, 2, 3]);
    // 3 was still running when 1 failed, and was awaited.
    expect(finished).toEqual([0, 3]);
  });

  it('does nothing for no items and refuses a limit below 1', async () => {
    let calls = 0;
    await forEachConcurrently([], 4, () => Promise.resolve(void calls++));
    expect(calls).toBe(0);
    await expect(forEachConcurrently([1], 0, () => Promise.resolve())).rejects.toThrow(/at least 1/);
    await expect(forEachConcurrently([1], Number.NaN, () => Promise.resolve())).rejects.toThrow(/at least 1/);
  });
});

describe('chunked', () => {
  it('cuts the items, in order, into groups of the size, only the last one shorter', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 60 }), fc.integer({ min: 1, max: 30 }), (items, size) => {
        const groups = chunked(items, size);
        expect(groups.flat()).toEqual(items);
        expect(groups.slice(0, -1).every((group) => group.length === size)).toBe(true);
        expect(groups.every((group) => group.length >= 1 && group.length <= size)).toBe(true);
      }),
    );
  });
});

describe('untilProcessed', () => {
  it('sends again exactly what the last call left unprocessed, until nothing is left', async () => {
    const sent: number[][] = [];
    await untilProcessed([1, 2, 3, 4], (pending) => {
      sent.push(pending);
      return Promise.resolve(pending.slice(2));
    });
    expect(sent).toEqual([[1, 2, 3, 4], [3, 4]]);
  });

  it('gives up as busy when the store keeps leaving items unprocessed', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const outcome = untilProcessed([1], (pending) => {
        calls++;
        return Promise.resolve(pending);
      });
      const assertion = expect(outcome).rejects.toMatchObject({ kind: 'busy', transient: true });
      await vi.runAllTimersAsync();
      await assertion;
      expect(calls).toBe(9);
    } finally {
      vi.useRealTimers();
    }
  });
});
