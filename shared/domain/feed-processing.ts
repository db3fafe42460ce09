// Processing a feed: claim its lease, stream its rows from the last checkpoint, validate each, upsert
// products and standing offers in chunks, and commit progress after every chunk. The checkpoint (rows
// read, byte offset) and the counts are written together, and a row re-applied after a crash writes
// the same items again, so a resumed run neither loses nor double-counts rows. The outcome and its
// event (feed.completed or feed.failed, to the seller) are one transaction.
import { randomUUID } from 'node:crypto';
import { config } from '../config.ts';
import { feedFileSize } from '../data/feed-files.ts';
import {
  claimFeed,
  FeedStateChanged,
  finishFeed,
  getFeed,
  markUploaded,
  releaseLease,
  saveCheckpoint,
  type FeedCheckpoint,
  type FeedItem,
  type FeedProgress,
} from '../data/feeds.ts';
import { recordEvent, type NewEvent } from '../data/events.ts';
import { getProductsBySku, writeProducts, type OfferItem, type ProductItem } from '../data/products.ts';
import { newId } from '../ids.ts';
import { PRESIGNED_FEED_MAX_BYTES, type FeedWarning } from '../schemas/catalog.ts';
import type { FeedProductRow } from '../schemas/feed-rows.ts';
import { validateCsvRecord, validateJsonRow } from './feed-rows.ts';
import { effectiveStrategy } from './seller-policy.ts';
import { MAX_ROW_BYTES, openFeedSource, UnreadableFeed, type SourceRow } from './feed-sources.ts';
import { recordChunkForSearch, waitUntilSearchable } from './feed-searchable.ts';
import { countMetric } from '../metrics.ts';

/** Errors and warnings kept on the feed; the counts cover all. */
export const MAX_KEPT_ERRORS = 100;
/** Valid rows per write chunk (each is two items: 1,000 BatchWriteItem slots). */
const CHUNK_ROWS = 500;
/** A checkpoint at least this often, valid rows or not. */
const CHECKPOINT_ROWS = 1000;
/** Parallel BatchWriteItem calls per chunk. */
const WRITE_PARALLELISM = 8;
/** Stop and hand over when less than this is left of the function's time. */
const HANDOVER_MS = 60_000;
/** How long a notification waits for the record of a file stored a moment before it (then the sweep takes over). */
const RECORD_WAITS = 10;
const RECORD_WAIT_MS = 300;

export interface RunContext {
  /** Milliseconds left before the function is stopped (Lambda's getRemainingTimeInMillis). */
  remainingMs: () => number;
  now?: () => Date;
}

export type RunResult = 'completed' | 'failed' | 'handed-over' | 'skipped';

interface ValidRow {
  row: number;
  data: FeedProductRow;
}

/** A feed file landed (S3 notification): run its feed if the file is the one the feed waits for. */
export async function processUploadedFile(ids: { sellerId: string; feedId: string }, objectKey: string, context: RunContext): Promise<RunResult> {
  const now = context.now ?? (() => new Date());
  let feed = await getFeed(ids.sellerId, ids.feedId, { consistent: true });
  // An inline upload stores the file, then writes the record: the notification can be first.
  for (let wait = 0; !feed && wait < RECORD_WAITS; wait++) {
    await new Promise((resolve) => setTimeout(resolve, RECORD_WAIT_MS));
    feed = await getFeed(ids.sellerId, ids.feedId, { consistent: true });
  }
  if (!feed || feed.objectKey !== objectKey) return 'skipped'; // deleted, or an older file of a retried feed
  if (feed.status === 'awaiting_upload') {
    const size = await feedFileSize(objectKey);
    if (size === undefined) return 'skipped';
    try {
      feed = await markUploaded(feed, size, now());
    } catch (error) {
      if (error instanceof FeedStateChanged) return 'skipped'; // a duplicate notification got there first
      throw error;
    }
  }
  return runFeed(feed, context);
}

/** The recovery sweep's entry: a feed whose notification never came, or whose run stopped. */
export async function resumeFeed(ids: { sellerId: string; feedId: string }, context: RunContext): Promise<RunResult> {
  const feed = await getFeed(ids.sellerId, ids.feedId, { consistent: true });
  if (!feed) return 'skipped';
  return runFeed(feed, context);
}

async function runFeed(observed: FeedItem, context: RunContext): Promise<RunResult> {
  const now = context.now ?? (() => new Date());
  const leaseMs = config().FEED_LEASE_SECONDS * 1000;
  const token = randomUUID();
  const claimedAt = now();
  if (observed.status !== 'queued' && !(observed.status === 'processing' && (observed.leaseUntil ?? 0) < claimedAt.getTime())) return 'skipped';
  let feed: FeedItem;
  try {
    feed = await claimFeed(observed, { token, until: claimedAt.getTime() + leaseMs }, claimedAt);
  } catch (error) {
    if (error instanceof FeedStateChanged) return 'skipped'; // another run holds it
    throw error;
  }

  const progress: FeedProgress = {
    rowsTotal: feed.rowsTotal,
    rowsSucceeded: feed.rowsSucceeded,
    rowsFailed: feed.rowsFailed,
    errors: [...feed.errors],
    warnings: [...feed.warnings],
    checkpoint: feed.checkpoint ?? { rowsRead: 0, byteOffset: null, columns: null },
  };
  const fail = (reason: string) => finish(feed, token, progress, { status: 'failed', failureReason: reason }, now());

  if ((feed.sizeBytes ?? 0) > PRESIGNED_FEED_MAX_BYTES) {
    return fail(`The file is ${(feed.sizeBytes ?? 0).toLocaleString('en-US')} bytes; a feed file may have at most ${PRESIGNED_FEED_MAX_BYTES.toLocaleString('en-US')} bytes (100 MiB). Split it into several feeds.`);
  }

  let source;
  try {
    source = await openFeedSource(feed.objectKey, feed.format, feed.checkpoint);
  } catch (error) {
    if (error instanceof UnreadableFeed) return fail(error.message);
    throw error;
  }
  if (source.columns) progress.checkpoint = { ...progress.checkpoint, columns: source.columns };
  for (const column of source.unknownColumns) warn(progress, { row: null, field: column, message: `Unknown column ${column}: ignored` });

  const unknownJsonFields = new Set<string>(feed.warnings.filter((warning) => warning.row === null && warning.field).map((warning) => warning.field as string));
  let chunk: ValidRow[] = [];
  let sinceCheckpoint = 0;
  let position: FeedCheckpoint = progress.checkpoint;
  let savedAt = claimedAt.getTime();

  // Rows applied and refused are counted as each checkpoint saves them (a run resumed after a crash counts its last chunk again).
  let failedCounted = progress.rowsFailed;
  const commit = async () => {
    const applied = chunk.length;
    await writeChunk(feed, chunk, progress);
    chunk = [];
    sinceCheckpoint = 0;
    progress.checkpoint = position;
    savedAt = now().getTime();
    feed = await saveCheckpoint(feed, token, progress, savedAt + leaseMs);
    countMetric('feedRowsApplied', applied);
    countMetric('feedRowsFailed', progress.rowsFailed - failedCounted);
    failedCounted = progress.rowsFailed;
  };
  // A slow store must not let the lease lapse between checkpoints: commit early when a third of it is gone.
  const leaseRunningOut = () => now().getTime() - savedAt >= leaseMs / 3;

  try {
    for await (const sourceRow of source.rows) {
      progress.rowsTotal++;
      sinceCheckpoint++;
      const outcome = validate(sourceRow, progress.checkpoint.columns, unknownJsonFields, progress);
      if (outcome.ok) {
        progress.rowsSucceeded++;
        chunk.push({ row: sourceRow.row, data: outcome.row });
      } else {
        progress.rowsFailed++;
        for (const error of outcome.errors) if (progress.errors.length < MAX_KEPT_ERRORS) progress.errors.push(error);
      }
      position = { rowsRead: sourceRow.row, byteOffset: 'byteOffset' in sourceRow ? sourceRow.byteOffset : null, columns: progress.checkpoint.columns };
      if (chunk.length >= CHUNK_ROWS || sinceCheckpoint >= CHECKPOINT_ROWS || leaseRunningOut()) {
        await commit();
        if (context.remainingMs() < HANDOVER_MS) {
          source.close();
          await releaseLease(feed, token, now());
          return 'handed-over';
        }
      }
    }
  } catch (error) {
    source.close();
    if (error instanceof FeedStateChanged) return 'skipped'; // the lease was lost: another run continues
    if (error instanceof UnreadableFeed) {
      if (progress.rowsTotal === 0 || progress.rowsSucceeded === 0) return fail(error.message);
      return fail(`${error.message} (after row ${position.rowsRead}; the rows before it were applied)`);
    }
    throw error;
  }
  if (chunk.length > 0 || sinceCheckpoint > 0) await commit();

  if (progress.rowsTotal === 0) return fail('The file has no product rows after its header');
  if (progress.rowsSucceeded === 0) {
    return fail(`All ${progress.rowsTotal.toLocaleString('en-US')} rows are invalid; see errors for what to fix in each`);
  }
  // Completed only once search has every product the feed wrote (feed-searchable.ts); until then it reads processing.
  try {
    const searchable = await waitUntilSearchable(feed, {
      remainingMs: context.remainingMs,
      handoverMs: HANDOVER_MS,
      renewEveryMs: leaseMs / 3,
      renewLease: async () => {
        feed = await saveCheckpoint(feed, token, progress, now().getTime() + leaseMs);
      },
    });
    if (!searchable) {
      await releaseLease(feed, token, now());
      return 'handed-over';
    }
  } catch (error) {
    if (error instanceof FeedStateChanged) return 'skipped'; // the lease was lost: another run continues
    throw error;
  }
  return finish(feed, token, progress, { status: 'completed' }, now());
}

function warn(progress: FeedProgress, warning: FeedWarning): void {
  if (progress.warnings.length < MAX_KEPT_ERRORS) progress.warnings.push(warning);
}

function validate(sourceRow: SourceRow, columns: string[] | null, unknownJsonFields: Set<string>, progress: FeedProgress) {
  if (sourceRow.kind === 'oversize') {
    const size = `${sourceRow.bytes.toLocaleString('en-US')} bytes`;
    const limit = `${MAX_ROW_BYTES.toLocaleString('en-US')} bytes (1 MiB)`;
    const message = columns
      ? `The row is ${size}; a row may have at most ${limit}. Shorten its cells (a description has at most 5,000 characters), or close the quote that runs it on into the lines below`
      : `The product is ${size} of JSON; a product may have at most ${limit}`;
    return { ok: false as const, errors: [{ row: sourceRow.row, field: null, message }] };
  }
  if (sourceRow.kind === 'csv') {
    const expected = columns?.length ?? 0;
    if (sourceRow.cellCount !== expected) {
      return { ok: false as const, errors: [{ row: sourceRow.row, field: null, message: `The row has ${sourceRow.cellCount} cells but the header has ${expected} columns; check for a missing or extra comma, or quote cells that contain commas` }] };
    }
    return validateCsvRecord(sourceRow.cells, sourceRow.row, sourceRow.undecodable);
  }
  const outcome = validateJsonRow(sourceRow.value, sourceRow.row);
  for (const field of outcome.unknownFields) {
    if (unknownJsonFields.has(field)) continue;
    unknownJsonFields.add(field);
    warn(progress, { row: null, field, message: `Unknown field ${field}: ignored (first seen in row ${sourceRow.row})` });
  }
  return outcome;
}

/**
 * Upserts a chunk by (seller, sku). A sku repeated in the file: the last row wins and a warning says
 * so, within a chunk and across chunks (the stored product remembers the row of this attempt that
 * wrote it). A row re-applied after a resume finds its own row number there and is not a repeat.
 */
async function writeChunk(feed: FeedItem, chunk: readonly ValidRow[], progress: FeedProgress): Promise<void> {
  if (chunk.length === 0) return;
  const lastBySku = new Map<string, ValidRow>();
  for (const row of chunk) {
    const earlier = lastBySku.get(row.data.sku);
    if (earlier) warn(progress, { row: row.row, field: 'sku', message: `The sku ${row.data.sku} also appears in row ${earlier.row}; this later row wins` });
    lastBySku.set(row.data.sku, row);
  }
  const existing = await getProductsBySku(feed.sellerId, [...lastBySku.keys()]);
  const writes: { product: ProductItem; offer: OfferItem }[] = [];
  const timestamp = new Date().toISOString();
  for (const row of lastBySku.values()) {
    const current = existing.get(row.data.sku);
    const sameRun = current?.sourceFeedId === feed.feedId && current.sourceAttempt === feed.attempts;
    if (sameRun && current.sourceRow !== null && current.sourceRow > row.row) continue; // a later row of this file already won
    if (sameRun && current.sourceRow !== null && current.sourceRow < row.row) {
      warn(progress, { row: row.row, field: 'sku', message: `The sku ${row.data.sku} also appears in row ${current.sourceRow}; this later row wins` });
    }
    writes.push(catalogItems(feed.sellerId, row.data, current, timestamp, { feedId: feed.feedId, attempt: feed.attempts, row: row.row }));
  }
  // Before the items: a run that stops after writing them still knows what search must catch up on.
  await recordChunkForSearch(feed, chunk[0]?.row ?? 0, writes, timestamp);
  await writeProducts(writes, { parallelism: WRITE_PARALLELISM });
}

/**
 * A validated feed row as the product and standing offer it upserts: the ids of `current` (the product
 * the seller already has under this sku) kept, its source named (a feed's row, or none for a catalog
 * the marketplace loads itself: the sandbox's house seller).
 */
export function catalogItems(
  sellerId: string,
  data: FeedProductRow,
  current: ProductItem | undefined,
  timestamp: string,
  source: { feedId: string | null; attempt: number | null; row: number | null },
): { product: ProductItem; offer: OfferItem } {
  const productId = current?.productId ?? newId('product');
  const offerId = current?.standingOfferId ?? newId('offer');
  const createdAt = current?.createdAt ?? timestamp;
  const product: ProductItem = {
    productId,
    sellerId,
    sku: data.sku,
    title: data.title,
    description: data.description ?? null,
    category: data.category ?? null,
    brand: data.brand ?? null,
    attributes: data.attributes,
    unit: data.unit,
    packSize: data.packSize,
    price: data.price,
    availableQuantity: data.availableQuantity,
    minOrderQuantity: data.minOrderQuantity,
    leadTimeDays: data.leadTimeDays,
    shipsFrom: data.shipsFrom ?? null,
    imageUrls: data.imageUrls,
    status: data.status,
    sourceFeedId: source.feedId,
    createdAt,
    updatedAt: timestamp,
    standingOfferId: offerId,
    sourceAttempt: source.attempt,
    sourceRow: source.row,
  };
  const offer: OfferItem = {
    offerId,
    productId,
    sellerId,
    unitPrice: data.price,
    minQuantity: data.minOrderQuantity,
    priceTiers: data.priceTiers,
    negotiable: data.negotiable,
    validUntil: null,
    status: data.status === 'active' ? 'active' : 'withdrawn',
    floorUnitPrice: data.floorUnitPrice ?? null,
    autoAcceptUnitPrice: data.autoAcceptUnitPrice ?? null,
    negotiationStrategy: effectiveStrategy(data.negotiationStrategy, data.floorUnitPrice != null),
    createdAt,
    updatedAt: timestamp,
  };
  return { product, offer };
}

async function finish(
  feed: FeedItem,
  token: string,
  progress: FeedProgress,
  outcome: { status: 'completed' } | { status: 'failed'; failureReason: string },
  now: Date,
): Promise<RunResult> {
  const { checkpoint: _checkpoint, ...counts } = progress;
  const about = { feedId: feed.feedId, sellerId: feed.sellerId };
  const outcomeData = { format: feed.format, filename: feed.filename, rowsTotal: counts.rowsTotal, rowsSucceeded: counts.rowsSucceeded, rowsFailed: counts.rowsFailed };
  const completedAt = now.toISOString();
  const event: NewEvent<'feed.completed' | 'feed.failed'> =
    outcome.status === 'completed'
      ? { type: 'feed.completed', data: { ...about, status: 'completed', ...outcomeData, completedAt }, agentIds: [feed.sellerId] }
      : { type: 'feed.failed', data: { ...about, status: 'failed', ...outcomeData, failureReason: outcome.failureReason, completedAt }, agentIds: [feed.sellerId] };
  const { operation } = recordEvent(event, now);
  try {
    await finishFeed(feed, token, { ...outcome, progress: counts }, operation, now);
  } catch (error) {
    if (error instanceof FeedStateChanged) return 'skipped';
    throw error;
  }
  return outcome.status;
}

