// The rule a DynamoDB Streams event source mapping applies to a batch its function fails on, with
// bisectBatchOnError and retryAttempts, as the local stream reader applies it: a failing batch is
// halved until the failing record is alone; that record is retried (after a pause, before anything
// later) until it has failed `retryAttempts` + 1 times, then given up on (its dead letter sent) and
// skipped. So one bad record holds its shard up for seconds, not for ever, and the records around it
// are handled.

/** What to do with a batch whose function failed. */
export type FailedBatchPlan<T> =
  /** Hand each half on its own, in order. */
  | { action: 'split'; halves: readonly [readonly T[], readonly T[]] }
  /** The record failed alone `attempts` times so far: pause, then read again from it. */
  | { action: 'retry'; attempts: number }
  /** The record failed alone `attempts` times, more than retryAttempts allows: give up and move past it. */
  | { action: 'skip'; attempts: number };

/** The plan for a failed batch; `failedBefore` is how often its record (when alone) failed alone before. */
export function planAfterFailure<T>(batch: readonly T[], failedBefore: number, retryAttempts: number): FailedBatchPlan<T> {
  if (batch.length > 1) {
    const half = Math.ceil(batch.length / 2);
    return { action: 'split', halves: [batch.slice(0, half), batch.slice(half)] };
  }
  const attempts = failedBefore + 1;
  return attempts <= retryAttempts ? { action: 'retry', attempts } : { action: 'skip', attempts };
}

export interface BisectingDelivery<T> {
  /** Hands a batch to the function; rejects when it fails. */
  invoke(batch: readonly T[]): Promise<unknown>;
  /** A record's identity across reads (its sequence number). */
  keyOf(record: T): string;
  /** Failed attempts of records that failed alone, by key: kept between reads of the stream. */
  failedAttempts: Map<string, number>;
  retryAttempts: number;
  /** A record given up on, before it is skipped; a rejection keeps it (tried again on the next read). */
  giveUp(record: T, attempts: number, error: unknown): Promise<void>;
  /** A batch was handled (or its record skipped): a later failure resumes after it. */
  passed(batch: readonly T[]): void;
}

/**
 * Hands a batch to the function by the rule above. Rejects with the function's error when a record is
 * to be retried: the caller pauses, then reads again from the last batch passed (this record first).
 */
export async function deliverBisecting<T>(batch: readonly T[], delivery: BisectingDelivery<T>): Promise<void> {
  try {
    await delivery.invoke(batch);
  } catch (error) {
    const key = batch.length === 1 ? delivery.keyOf(batch[0] as T) : '';
    const plan = planAfterFailure(batch, delivery.failedAttempts.get(key) ?? 0, delivery.retryAttempts);
    if (plan.action === 'split') {
      for (const half of plan.halves) await deliverBisecting(half, delivery);
      return;
    }
    if (plan.action === 'retry') {
      delivery.failedAttempts.set(key, plan.attempts);
      throw error;
    }
    await delivery.giveUp(batch[0] as T, plan.attempts, error);
    delivery.failedAttempts.delete(key);
  }
  delivery.passed(batch);
}
