// Seller feeds (contract §3 "Feed") live in their seller's partition: listing them is one Query and
// another seller's feed is simply not found. Processing state is guarded by a lease: the run that
// claimed a feed holds `leaseToken`, and every checkpoint and the final outcome are conditional on it,
// so a run that lost its lease (it stalled past leaseUntil and another took over) can write nothing.
// While a feed waits or runs it carries gsi1 keys in the work index (`FEEDWORK`, sorted by when it is
// due): the recovery sweep finds stalled or never-notified feeds there. Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import type { FeedRowError, FeedWarning } from '../schemas/catalog.ts';
import { Feed } from '../schemas/catalog.ts';
import { ConditionRefused, defineEntity, type IndexKeys } from './entity.ts';
import { where } from './expressions.ts';
import { transactWrite, TransactionRefused, type TransactOperation } from './transactions.ts';

/** Where a run stopped: data rows read so far and, for CSV, the byte offset just after the last of them. */
export const FeedCheckpoint = z.object({
  rowsRead: z.int(),
  byteOffset: z.nullable(z.int()),
  /** The CSV header's columns, to parse the rest of the file from byteOffset. */
  columns: z.nullable(z.array(z.string())),
});
export type FeedCheckpoint = z.infer<typeof FeedCheckpoint>;

export const FeedEntity = defineEntity({
  name: 'feed',
  schema: z.extend(Feed, {
    /** The stored file this feed processes (each upload and retry writes a new object). */
    objectKey: z.string(),
    /** Who holds the processing lease ('none' when nobody), and until when (epoch ms). */
    leaseToken: z.string(),
    leaseUntil: z.nullable(z.int()),
    checkpoint: z.nullable(FeedCheckpoint),
  }),
  key: ({ sellerId, feedId }: { sellerId: string; feedId: string }) => ({ pk: `AGENT#${sellerId}`, sk: `FEED#${feedId}` }),
  indexKeys: (feed) => (feed.status === 'queued' || feed.status === 'processing' ? workIndexKeys(feed.feedId, feed.leaseUntil ?? 0) : {}),
});
export type FeedItem = z.output<typeof FeedEntity.schema>;
const { and, eq, exists, lt, not, or } = FeedEntity.where;

export const NO_LEASE = 'none';
const WORK_PARTITION = 'FEEDWORK';

/** The work index's keys: sorted by when the feed is due for (re)processing. */
function workIndexKeys(feedId: string, dueAtMs: number): IndexKeys {
  return { gsi1pk: WORK_PARTITION, gsi1sk: `${new Date(dueAtMs).toISOString()}#${feedId}` };
}

export function createFeed(item: FeedItem): Promise<FeedItem> {
  return FeedEntity.put(item, item, { condition: where.notExists('pk') });
}

export function getFeed(sellerId: string, feedId: string, options: { consistent?: boolean } = {}): Promise<FeedItem | undefined> {
  return FeedEntity.get({ sellerId, feedId }, options);
}

export function listFeeds(sellerId: string, options: { limit: number; startKey?: Record<string, unknown>; status?: string }) {
  return FeedEntity.query({
    partition: `AGENT#${sellerId}`,
    sortKey: { beginsWith: 'FEED#' },
    ascending: false, // ULIDs sort by time: newest first
    limit: options.limit,
    startKey: options.startKey,
    ...(options.status ? { filter: where.eq('status', options.status) } : {}),
  });
}

/** Feeds due for (re)processing: queued and never picked up, or processing under an expired lease. */
export async function listDueFeeds(now: Date, limit: number): Promise<{ sellerId: string; feedId: string }[]> {
  const page = await FeedEntity.query({ index: 'gsi1', partition: WORK_PARTITION, sortKey: { lessThan: `${now.toISOString()}~` }, limit });
  return page.items.map((feed) => ({ sellerId: feed.sellerId, feedId: feed.feedId }));
}

/** What a refused conditional change found: the feed as it is now (undefined: it no longer exists). */
export class FeedStateChanged extends Error {
  readonly current: FeedItem | undefined;
  constructor(current: FeedItem | undefined) {
    super('The feed changed meanwhile');
    this.name = 'FeedStateChanged';
    this.current = current;
  }
}

async function guarded(change: () => Promise<FeedItem>): Promise<FeedItem> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof ConditionRefused) throw new FeedStateChanged(error.current as FeedItem | undefined);
    throw error;
  }
}

const PROCESSING_ATTRIBUTES = ['status', 'leaseToken', 'leaseUntil', 'attempts', 'startedAt', 'rowsTotal', 'rowsSucceeded', 'rowsFailed', 'errors', 'warnings', 'checkpoint', 'failureReason', 'completedAt', 'objectKey', 'sizeBytes', 'format', 'filename'] as const;

/** The presigned file landed: awaiting_upload → queued (only for the file this feed waits for). */
export function markUploaded(feed: FeedItem, sizeBytes: number, now: Date): Promise<FeedItem> {
  return guarded(() =>
    FeedEntity.update(
      feed,
      { set: { status: 'queued', sizeBytes }, setIndexKeys: workIndexKeys(feed.feedId, now.getTime()) },
      {
        allow: PROCESSING_ATTRIBUTES,
        condition: and(eq('status', 'awaiting_upload'), eq('objectKey', feed.objectKey)),
      },
    ),
  );
}

/**
 * Takes the processing lease of a feed as it was read (`observed`): queued, or processing under an
 * expired lease. The observed lease token makes the read-then-claim safe: a concurrent claim changed
 * it, and this one is refused. Claiming a queued feed (an upload or a retry) starts a new attempt;
 * taking over an expired lease continues the attempt, from its checkpoint, or from the first row with
 * counts at zero when the run before saved none.
 */
export function claimFeed(observed: FeedItem, lease: { token: string; until: number }, now: Date): Promise<FeedItem> {
  const newAttempt = observed.status === 'queued';
  const fromFirstRow = observed.checkpoint === null;
  return guarded(() =>
    FeedEntity.update(
      observed,
      {
        set: {
          status: 'processing',
          leaseToken: lease.token,
          leaseUntil: lease.until,
          ...(fromFirstRow ? { rowsTotal: 0, rowsSucceeded: 0, rowsFailed: 0, errors: [], warnings: [], failureReason: null, completedAt: null } : {}),
          ...(newAttempt ? { startedAt: now.toISOString() } : {}),
        },
        ...(newAttempt ? { add: { attempts: 1 } } : {}),
        setIndexKeys: workIndexKeys(observed.feedId, lease.until),
      },
      {
        allow: PROCESSING_ATTRIBUTES,
        condition: and(
          eq('leaseToken', observed.leaseToken),
          eq('objectKey', observed.objectKey),
          or(eq('status', 'queued'), and(eq('status', 'processing'), lt('leaseUntil', now.getTime()))),
        ),
      },
    ),
  );
}

export interface FeedProgress {
  rowsTotal: number;
  rowsSucceeded: number;
  rowsFailed: number;
  errors: FeedRowError[];
  warnings: FeedWarning[];
  checkpoint: FeedCheckpoint;
}

const holdsLease = (token: string) => eq('leaseToken', token);

/** Commits progress and extends the lease, only while the lease is still ours. */
export function saveCheckpoint(feed: FeedItem, token: string, progress: FeedProgress, leaseUntil: number): Promise<FeedItem> {
  return guarded(() =>
    FeedEntity.update(
      feed,
      { set: { ...progress, leaseUntil }, setIndexKeys: workIndexKeys(feed.feedId, leaseUntil) },
      { allow: PROCESSING_ATTRIBUTES, condition: holdsLease(token) },
    ),
  );
}

/** Gives the lease back with the feed due now, so that the next run continues at once (Lambda's time is nearly up). */
export function releaseLease(feed: FeedItem, token: string, now: Date): Promise<FeedItem> {
  return guarded(() =>
    FeedEntity.update(
      feed,
      { set: { leaseUntil: now.getTime() - 1 }, setIndexKeys: workIndexKeys(feed.feedId, now.getTime() - 1) },
      { allow: PROCESSING_ATTRIBUTES, condition: holdsLease(token) },
    ),
  );
}

export type FeedOutcome =
  | { status: 'completed'; progress: Omit<FeedProgress, 'checkpoint'> }
  | { status: 'failed'; failureReason: string; progress: Omit<FeedProgress, 'checkpoint'> };

/** Ends the run: the outcome and its event in one transaction, only while the lease is ours. */
export async function finishFeed(feed: FeedItem, token: string, outcome: FeedOutcome, event: TransactOperation, now: Date): Promise<void> {
  try {
    await transactWrite([
      FeedEntity.updateOperation(
        'feed',
        feed,
        {
          set: {
            ...outcome.progress,
            status: outcome.status,
            failureReason: outcome.status === 'failed' ? outcome.failureReason : null,
            completedAt: now.toISOString(),
            leaseToken: NO_LEASE,
            leaseUntil: null,
            checkpoint: null,
          },
          removeIndexKeys: ['gsi1'],
        },
        { allow: PROCESSING_ATTRIBUTES, condition: holdsLease(token) },
      ),
      event,
    ]);
  } catch (error) {
    if (error instanceof TransactionRefused && error.has('feed')) throw new FeedStateChanged(error.current('feed'));
    throw error;
  }
}

/** failed → queued with a new file (a copy of the old one, or a corrected upload); counts start again. */
export function requeueFeed(
  feed: FeedItem,
  next: { objectKey: string; status: 'queued' | 'awaiting_upload'; format: FeedItem['format']; filename: string | null; sizeBytes: number | null },
  now: Date,
): Promise<FeedItem> {
  return guarded(() =>
    FeedEntity.update(
      feed,
      {
        set: {
          status: next.status,
          objectKey: next.objectKey,
          format: next.format,
          filename: next.filename,
          sizeBytes: next.sizeBytes,
          rowsTotal: 0,
          rowsSucceeded: 0,
          rowsFailed: 0,
          errors: [],
          warnings: [],
          failureReason: null,
          startedAt: null,
          completedAt: null,
          checkpoint: null,
          leaseToken: NO_LEASE,
          leaseUntil: null,
        },
        ...(next.status === 'queued' ? { setIndexKeys: workIndexKeys(feed.feedId, now.getTime() + QUEUED_GRACE_MS) } : {}),
      },
      { allow: PROCESSING_ATTRIBUTES, condition: eq('status', 'failed') },
    ),
  );
}

/** How long a queued feed waits for its S3 notification before the recovery sweep takes it. */
export const QUEUED_GRACE_MS = 30_000;

/** Deletes the record unless it is queued or processing. */
export async function deleteFeedRecord(feed: FeedItem): Promise<void> {
  try {
    await FeedEntity.delete(feed, {
      condition: and(exists('pk'), not(FeedEntity.where.in('status', ['queued', 'processing']))),
    });
  } catch (error) {
    if (error instanceof ConditionRefused) throw new FeedStateChanged(error.current as FeedItem | undefined);
    throw error;
  }
}

/** The new feed's work index position when it starts queued (inline uploads). */
export function queuedDueAt(now: Date): number {
  return now.getTime() + QUEUED_GRACE_MS;
}
