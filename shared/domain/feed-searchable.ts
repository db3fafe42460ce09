// A feed reads `completed` only once search has its products (contract §5.6: no reader sees completed and
// then misses its products). Search reads a replica fed by the table's stream through the search log
// (docs/decisions/search-via-stream.md), so a product written by a feed is searchable only after the
// stream worker has appended its image to the log and each search instance has read the log since.
// A feed run therefore records, per chunk, what it wrote (shared/data/feed-search-receipts.ts), and
// before it completes looks through the log until every product and offer it wrote is there at least as
// new as it wrote them; then it waits one search refresh interval, after which no search instance can
// still answer from a replica older than those entries (shared/domain/search-index.ts). Decision:
// docs/decisions/feed-completed-when-searchable.md.
import { config } from '../config.ts';
import { listFeedSearchReceipts, putFeedSearchReceipt } from '../data/feed-search-receipts.ts';
import type { OfferItem, ProductItem } from '../data/products.ts';
import { readSearchChangesPage, readSearchHead } from '../data/search-log.ts';
import { logger } from '../logger.ts';

/** Log entries read per request (each up to 300 KB). */
const LOG_PAGE_ENTRIES = 20;
/** Clocks of different functions may differ a little: waited on top of the refresh interval. */
const CLOCK_MARGIN_MS = 100;
/** Re-reads of the log while images are missing: 100 ms, doubling, at most 1 s apart. */
const pollDelayMs = (attempt: number) => Math.min(1_000, 100 * 2 ** attempt);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Records a chunk's items before they are written: ids, the time stamped on them, and the log's position now. */
export async function recordChunkForSearch(feed: { feedId: string; attempts: number }, firstRow: number, writes: readonly { product: ProductItem; offer: OfferItem }[], writtenAt: string): Promise<void> {
  if (writes.length === 0) return;
  await putFeedSearchReceipt(
    {
      feedId: feed.feedId,
      attempt: feed.attempts,
      firstRow,
      writtenAt,
      logSeqBefore: await logPosition(),
      productIds: writes.map(({ product }) => product.productId),
      offerIds: writes.map(({ offer }) => offer.offerId),
    },
    new Date(),
  );
}

/** The search log's head sequence; 0 (the whole log is looked through) when the head cannot be read: search's trouble must not stop a feed. */
async function logPosition(): Promise<number> {
  try {
    return (await readSearchHead()).seq;
  } catch (error) {
    logger.warn('Search log head unreadable: the feed will look through the whole log', { error: error as Error });
    return 0;
  }
}

/** Reads the log on from `cursor`, crossing off what it finds; the new cursor. */
async function crossOff(missing: Map<string, string>, cursor: number): Promise<number> {
  // A log reset meanwhile (removed or rebuilt from scratch): its entries start again from 1.
  let position = (await readSearchHead()).seq < cursor ? 0 : cursor;
  for (let page = await readSearchChangesPage(position, LOG_PAGE_ENTRIES); page.length > 0; page = await readSearchChangesPage(position, LOG_PAGE_ENTRIES)) {
    for (const entry of page) {
      for (const change of entry.changes) {
        const id = change.kind === 'product' ? change.item.productId : change.item.offerId;
        const writtenAt = missing.get(id);
        if (writtenAt !== undefined && change.item.updatedAt >= writtenAt) missing.delete(id);
      }
      position = entry.seq;
    }
    if (missing.size === 0) break;
  }
  return position;
}

export interface SearchWait {
  /** Milliseconds left before the function is stopped. */
  remainingMs: () => number;
  /** Stop waiting (and hand the feed over) when less than this is left. */
  handoverMs: number;
  /** Keeps the run's lease while it waits; called at least every `renewEveryMs`. */
  renewLease: () => Promise<void>;
  renewEveryMs: number;
}

/**
 * Waits until every product and offer this attempt of the feed wrote is in the search log (an image at
 * least as new as the one written) and one search refresh interval has passed since; true then, false
 * when the function's time runs out first (the caller hands the feed over: it stays `processing`).
 */
export async function waitUntilSearchable(feed: { feedId: string; attempts: number }, wait: SearchWait): Promise<boolean> {
  const receipts = await listFeedSearchReceipts(feed.feedId, feed.attempts);
  const missing = new Map<string, string>();
  let cursor = Number.POSITIVE_INFINITY;
  for (const receipt of receipts) {
    for (const id of [...receipt.productIds, ...receipt.offerIds]) {
      const earlier = missing.get(id);
      if (earlier === undefined || earlier < receipt.writtenAt) missing.set(id, receipt.writtenAt);
    }
    cursor = Math.min(cursor, receipt.logSeqBefore);
  }
  if (missing.size === 0) return true;
  let renewedAt = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      cursor = await crossOff(missing, cursor);
    } catch (error) {
      // The log cannot be read now (its head damaged, the store busy): not searchable yet, so wait on.
      if (attempt === 0) logger.warn('Search log unreadable while a feed waits for search', { feedId: feed.feedId, error: error as Error });
    }
    if (missing.size === 0) break;
    if (wait.remainingMs() < wait.handoverMs) return false;
    if (Date.now() - renewedAt >= wait.renewEveryMs) {
      await wait.renewLease();
      renewedAt = Date.now();
    }
    await sleep(pollDelayMs(attempt));
  }
  // Every search instance checks the log at least this often (and from a read that began after the
  // request it serves arrived, less this interval): after it, none can miss these entries.
  const refreshMs = config().SEARCH_INDEX_REFRESH_MS + CLOCK_MARGIN_MS;
  if (Date.now() - renewedAt + refreshMs >= wait.renewEveryMs) await wait.renewLease();
  await sleep(refreshMs);
  return true;
}
