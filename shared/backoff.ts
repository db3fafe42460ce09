// The wait before a retry of a request the store refused for the moment (a collided transaction,
// batch items left unprocessed): exponential from 25 ms with full jitter, capped at 1 s, as AWS
// advises. Pure, so the data layer and the benches' raw batches retry by the same rule.

/** Milliseconds to wait before retry number `attempt` (1 for the first): a whole number under min(1000, 25 × 2^attempt). */
export function fullJitterBackoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(1000, 25 * 2 ** attempt));
}

/** Waits fullJitterBackoffMs(attempt). */
export function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, fullJitterBackoffMs(attempt)));
}
