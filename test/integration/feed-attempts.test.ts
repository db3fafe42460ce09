// A feed's attempts count the seller's uploads and retries, not the runs that processing took: a run
// that takes over an expired lease continues the same attempt, whether or not the run before it had
// saved a checkpoint (on a loaded machine a first chunk can outlast the lease).
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { putFeedFile } from '../../shared/data/feed-files.ts';
import { claimFeed, FeedEntity, getFeed, NO_LEASE, type FeedItem } from '../../shared/data/feeds.ts';
import { resumeFeed } from '../../shared/domain/feed-processing.ts';
import { newId } from '../../shared/ids.ts';

it('keeps one attempt when a run takes over a lease that expired before the first checkpoint', async () => {
  const sellerId = newId('agent');
  const feedId = newId('feed');
  // Stored outside feeds/, so that no notification starts a run of its own.
  const objectKey = `test-feed-attempts/${randomUUID()}.csv`;
  await putFeedFile(objectKey, Buffer.from('sku,title,price,currency,available_quantity\nAT-1,One,1.00,USD,1\nAT-2,Two,2.00,USD,2\n'), 'csv');
  const now = Date.now();
  // Due a minute from now, so that the runtime's recovery sweep leaves it to this test.
  const queued: FeedItem = {
    feedId, sellerId, format: 'csv', status: 'queued', filename: null, sizeBytes: 80, rowsTotal: 0, rowsSucceeded: 0, rowsFailed: 0, errors: [], warnings: [],
    attempts: 0, failureReason: null, createdAt: new Date(now).toISOString(), startedAt: null, completedAt: null, objectKey, leaseToken: NO_LEASE, leaseUntil: now + 60_000, checkpoint: null,
  };
  await FeedEntity.put(queued, queued);

  // The first run claims the feed and stops before its first checkpoint.
  const claimed = await claimFeed(queued, { token: randomUUID(), until: now + 60_000 }, new Date(now));
  expect(claimed).toMatchObject({ status: 'processing', attempts: 1, checkpoint: null });

  // Once its lease has expired, the recovery sweep's run takes over and finishes.
  const later = () => new Date(now + 120_000);
  expect(await resumeFeed({ sellerId, feedId }, { remainingMs: () => 900_000, now: later })).toBe('completed');
  expect(await getFeed(sellerId, feedId, { consistent: true })).toMatchObject({ status: 'completed', attempts: 1, rowsTotal: 2, rowsSucceeded: 2, startedAt: claimed.startedAt });
});
