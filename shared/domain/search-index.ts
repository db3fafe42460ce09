// This instance's copy of the search index. The first search loads the newest snapshot from S3 and
// replays the change log after it; later searches check the log's head at most every
// SEARCH_INDEX_REFRESH_MS (one GetItem) and apply only the entries they lack (one Query). So a catalog
// change is searchable within the stream's delay plus one refresh interval (docs/search.md).
import { rmSync } from 'node:fs';
import { config } from '../config.ts';
import { logger } from '../logger.ts';
import { OfferEntity, ProductEntity } from '../data/products.ts';
import { appendSearchChanges, readSearchChanges, readSearchHead, recordSearchSnapshot, type SearchHead } from '../data/search-log.ts';
import { newReplicaFile, SearchReplica, type SearchChange } from '../data/search-replica/index.ts';
import { deleteSnapshotsBefore, downloadSnapshot, snapshotKeyFor, uploadSnapshot } from '../data/search-snapshots.ts';
import { toProduct, toPublicOffer } from './catalog.ts';

let replica: SearchReplica | undefined;
/** When the head read of the last finished refresh began: the replica has every entry logged before it. */
let checkedAt = 0;
let refreshing: Promise<SearchReplica> | undefined;

/**
 * The index, current to within the refresh interval of the caller's arrival: it holds every log entry
 * appended before (arrival − interval). Concurrent callers share one refresh; a caller that joined a
 * refresh begun too long before it arrived (a cold load takes seconds) waits for the next. A feed counts
 * on this bound to report `completed` only once its products are searchable (feed-searchable.ts).
 */
export async function currentSearchIndex(options: { maxAgeMs?: number } = {}): Promise<SearchReplica> {
  const maxAge = options.maxAgeMs ?? config().SEARCH_INDEX_REFRESH_MS;
  const arrived = Date.now();
  for (;;) {
    if (replica && arrived - checkedAt < maxAge) return replica;
    refreshing ??= refresh().finally(() => {
      refreshing = undefined;
    });
    const refreshed = await refreshing;
    if (arrived - checkedAt <= maxAge) return refreshed;
  }
}

async function refresh(): Promise<SearchReplica> {
  const startedAt = Date.now();
  const head = await readSearchHead();
  // Built aside and swapped in whole: meanwhile readers keep the copy they had, never a half-loaded one.
  let next = replica ?? (await loadSnapshot(head));
  // A log behind this copy was reset (removed, restored, rebuilt from scratch): start again from it.
  if (head.seq < next.seq) next = await loadSnapshot(head);
  if (head.seq > next.seq) {
    let entries = await readSearchChanges(next.seq);
    // Entries before the snapshot have expired: start again from the snapshot.
    if (entries.length === 0 || (entries[0]?.seq ?? 0) !== next.seq + 1) {
      next = await loadSnapshot(head);
      entries = await readSearchChanges(next.seq);
    }
    for (const entry of entries) next.apply(entry.seq, entry.changes);
  }
  if (next !== replica) replace(next);
  // Only now, with every entry up to the head applied, is the copy as fresh as the head read.
  checkedAt = startedAt;
  return next;
}

async function loadSnapshot(head: SearchHead): Promise<SearchReplica> {
  const file = newReplicaFile();
  if (head.snapshotKey) await downloadSnapshot(head.snapshotKey, file);
  return new SearchReplica(file);
}

function replace(next: SearchReplica): void {
  const previous = replica;
  replica = next;
  if (previous) {
    previous.close();
    rmSync(previous.file, { force: true });
  }
}

/** Forgets this instance's index (tests and benchmarks measuring a cold load). */
export function dropSearchIndex(): void {
  if (replica) {
    replica.close();
    rmSync(replica.file, { force: true });
  }
  replica = undefined;
  checkedAt = 0;
}

/** Product and offer items from the table (stream images) as index changes: public fields only. */
export function searchChangesFrom(items: readonly Record<string, unknown>[]): SearchChange[] {
  const changes: SearchChange[] = [];
  for (const raw of items) {
    if (raw.entity === ProductEntity.name) {
      const product = ProductEntity.parse(raw);
      changes.push({ kind: 'product', item: { ...toProduct(product), standingOfferId: product.standingOfferId } });
    } else if (raw.entity === OfferEntity.name) {
      // The private negotiation policy never enters the index, its log or its snapshots.
      changes.push({ kind: 'offer', item: toPublicOffer(OfferEntity.parse(raw)) });
    }
  }
  return changes;
}

/** Appends catalog changes to the search index log; returns the last entry's sequence (0: nothing to add). */
export async function recordCatalogChanges(items: readonly Record<string, unknown>[], now = new Date()): Promise<number> {
  const changes = searchChangesFrom(items);
  return changes.length > 0 ? appendSearchChanges(changes, now) : 0;
}

const SNAPSHOT_MAX_AGE_MS = 5 * 60_000;

/**
 * Takes a snapshot when the log has grown by SEARCH_SNAPSHOT_MIN_ENTRIES since the last one, or has
 * any entry more after five minutes. The previous snapshot is kept for instances loading it right now.
 */
export async function snapshotSearchIndex(now = new Date()): Promise<{ seq: number; key: string } | undefined> {
  const head = await readSearchHead();
  const behind = head.seq - head.snapshotSeq;
  const age = head.snapshotAt ? now.getTime() - Date.parse(head.snapshotAt) : Infinity;
  if (behind <= 0 || (behind < config().SEARCH_SNAPSHOT_MIN_ENTRIES && age < SNAPSHOT_MAX_AGE_MS)) return undefined;
  logger.info('Search index snapshot started', { headSeq: head.seq, snapshotSeq: head.snapshotSeq });
  const index = await currentSearchIndex({ maxAgeMs: 0 });
  const file = newReplicaFile();
  try {
    index.copyTo(file);
    const key = snapshotKeyFor(index.seq);
    await uploadSnapshot(key, file);
    if (await recordSearchSnapshot(index.seq, key, now)) await deleteSnapshotsBefore(head.snapshotKey ?? key);
    return { seq: index.seq, key };
  } finally {
    rmSync(file, { force: true });
  }
}
