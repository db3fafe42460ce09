// Worker `feed-recovery`, every minute: feeds whose notification never led to a run (still queued
// after a grace period) and runs that stopped (a crash, or a hand-over near Lambda's time limit)
// are continued from their last checkpoint.
import type { Context } from 'aws-lambda';
import { config } from '../../shared/config.ts';
import { listDueFeeds } from '../../shared/data/feeds.ts';
import { resumeFeed } from '../../shared/domain/feed-processing.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

/** Leave time for one more feed's checkpointed chunk before the function's own limit. */
const STOP_BEFORE_MS = 90_000;

export const handler = workerHandler(async (_event: unknown, context: Context): Promise<void> => {
  const due = await listDueFeeds(new Date(), 10);
  for (const ids of due) {
    if (context.getRemainingTimeInMillis() < STOP_BEFORE_MS) return;
    const result = await resumeFeed(ids, { remainingMs: () => context.getRemainingTimeInMillis() });
    logger.info('Feed recovery run', { ...ids, result });
  }
});
