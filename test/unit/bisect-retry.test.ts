// The bisect-and-retry rule of the local stream reader (lib/local/bisect-retry.ts), as the deployed
// event source mapping applies bisectBatchOnError and retryAttempts: a failing batch is halved until
// the failing record is alone, that record is retried, then given up on and skipped. Driven here over an
// in-memory stream with the reader's checkpoint semantics (a retry reads again after the last batch
// passed), as properties over any stream, batch size and set of records the function fails on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliverBisecting, planAfterFailure } from '../../lib/local/bisect-retry.ts';

interface Run {
  /** Every batch handed to the function, in order. */
  calls: number[][];
  /** Records of batches the function handled, in order. */
  handled: number[];
  givenUp: { record: number; attempts: number }[];
  reads: number;
}

/** Reads `records` (unique) from the last checkpoint in batches until every record has passed. */
async function readStream(records: readonly number[], failsOn: ReadonlySet<number>, batchSize: number, retryAttempts: number): Promise<Run> {
  const run: Run = { calls: [], handled: [], givenUp: [], reads: 0 };
  let checkpoint = 0;
  const failedAttempts = new Map<string, number>();
  const delivery = {
    invoke: (batch: readonly number[]) => {
      run.calls.push([...batch]);
      if (batch.some((record) => failsOn.has(record))) return Promise.reject(new Error('the function failed'));
      run.handled.push(...batch);
      return Promise.resolve();
    },
    keyOf: String,
    failedAttempts,
    retryAttempts,
    giveUp: (record: number, attempts: number) => {
      run.givenUp.push({ record, attempts });
      return Promise.resolve();
    },
    passed: (batch: readonly number[]) => {
      checkpoint = records.indexOf(batch.at(-1) as number) + 1;
    },
  };
  while (checkpoint < records.length) {
    run.reads += 1;
    if (run.reads > records.length * (retryAttempts + 2) + 1) throw new Error(`stuck at ${checkpoint}`);
    const pending = records.slice(checkpoint);
    try {
      for (let at = 0; at < pending.length; at += batchSize) await deliverBisecting(pending.slice(at, at + batchSize), delivery);
    } catch {
      // The reader pauses and reads again from the checkpoint.
    }
  }
  return run;
}

const stream = fc
  .record({ size: fc.integer({ min: 1, max: 60 }), batchSize: fc.integer({ min: 1, max: 16 }), retryAttempts: fc.integer({ min: 0, max: 3 }) })
  .chain(({ size, batchSize, retryAttempts }) =>
    fc.record({
      records: fc.constant(Array.from({ length: size }, (_, index) => index)),
      failsOn: fc.uniqueArray(fc.integer({ min: 0, max: size - 1 }), { maxLength: Math.min(size, 6) }),
      batchSize: fc.constant(batchSize),
      retryAttempts: fc.constant(retryAttempts),
    }),
  );

describe('the plan after a failed batch', () => {
  it('halves a batch of several records, in order, the first half the larger', () => {
    expect(planAfterFailure([1, 2, 3, 4, 5], 0, 2)).toEqual({ action: 'split', halves: [[1, 2, 3], [4, 5]] });
    expect(planAfterFailure([1, 2], 7, 2)).toEqual({ action: 'split', halves: [[1], [2]] });
  });

  it('retries a record failing alone until it has failed retryAttempts + 1 times, then skips it', () => {
    expect(planAfterFailure(['r'], 0, 2)).toEqual({ action: 'retry', attempts: 1 });
    expect(planAfterFailure(['r'], 1, 2)).toEqual({ action: 'retry', attempts: 2 });
    expect(planAfterFailure(['r'], 2, 2)).toEqual({ action: 'skip', attempts: 3 });
    expect(planAfterFailure(['r'], 0, 0)).toEqual({ action: 'skip', attempts: 1 });
  });
});

describe('delivering a stream by the rule', () => {
  it('handles every record the function accepts exactly once, in stream order, and never skips one', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async ({ records, failsOn, batchSize, retryAttempts }) => {
        const run = await readStream(records, new Set(failsOn), batchSize, retryAttempts);
        expect(run.handled).toEqual(records.filter((record) => !failsOn.includes(record)));
      }),
    );
  });

  it('gives up on each record the function fails on once, in stream order, after it failed alone retryAttempts + 1 times', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async ({ records, failsOn, batchSize, retryAttempts }) => {
        const run = await readStream(records, new Set(failsOn), batchSize, retryAttempts);
        const failing = [...failsOn].sort((a, b) => a - b);
        expect(run.givenUp).toEqual(failing.map((record) => ({ record, attempts: retryAttempts + 1 })));
        for (const record of failing) {
          expect(run.calls.filter((batch) => batch.length === 1 && batch[0] === record)).toHaveLength(retryAttempts + 1);
        }
      }),
    );
  });

  it('isolates a failing record in at most ⌈log2 n⌉ + 1 calls, n the batch it first came in', async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.nat(), async ({ records, batchSize, retryAttempts }, pick) => {
        const bad = records[pick % records.length] as number;
        const run = await readStream(records, new Set([bad]), batchSize, retryAttempts);
        const first = run.calls.findIndex((batch) => batch.includes(bad));
        const alone = run.calls.findIndex((batch) => batch.length === 1 && batch[0] === bad);
        const calls = run.calls.slice(first, alone + 1).filter((batch) => batch.includes(bad)).length;
        expect(calls).toBeLessThanOrEqual(Math.ceil(Math.log2((run.calls[first] as number[]).length)) + 1);
      }),
    );
  });

  it('keeps a record whose dead letter cannot be sent, and gives up on it once the send succeeds', async () => {
    const failedAttempts = new Map<string, number>();
    const passed: number[][] = [];
    let sends = 0;
    const delivery = {
      invoke: () => Promise.reject(new Error('the function failed')),
      keyOf: String,
      failedAttempts,
      retryAttempts: 0,
      giveUp: () => (++sends === 1 ? Promise.reject(new Error('the queue is down')) : Promise.resolve()),
      passed: (batch: readonly number[]) => void passed.push([...batch]),
    };
    await expect(deliverBisecting([7], delivery)).rejects.toThrow('the queue is down');
    expect(passed).toEqual([]);
    await deliverBisecting([7], delivery);
    expect(passed).toEqual([[7]]);
    expect(failedAttempts.size).toBe(0);
  });
});
