// The items or keys DynamoDB leaves unprocessed by a batch call (under load), sent again with backoff
// until none is left or the retries run out. Pure of any client, so that the benches' raw batches
// retry by the same rule as the data layer's (shared/data/batches.ts).
import { backoff } from '../backoff.ts';
import { fail } from '../failures.ts';

/** Retries of unprocessed items before giving up as `busy` (backoff doubles from 25 ms, capped at 1 s). */
const BATCH_RETRIES = 8;

/** Calls `call` with the pending requests until it leaves none unprocessed; `busy` when retries run out. */
export async function untilProcessed<R>(requests: R[], call: (pending: R[]) => Promise<R[]>): Promise<void> {
  let pending = requests;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await backoff(attempt);
    if (attempt > BATCH_RETRIES) throw fail.busy('The marketplace is momentarily busy; retry in a second');
    pending = await call(pending);
  }
}
