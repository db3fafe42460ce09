// Seller feed use cases: upload (inline or presigned), read, list, retry, delete. The file is stored
// before the record is written, and processing starts from the stored object's notification.
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { copyFeedFile, deleteFeedFiles, newFeedObjectKey, presignFeedUpload, putFeedFile } from '../data/feed-files.ts';
import {
  createFeed,
  deleteFeedRecord,
  FeedStateChanged,
  getFeed,
  listFeeds,
  NO_LEASE,
  queuedDueAt,
  requeueFeed,
  type FeedItem,
} from '../data/feeds.ts';
import { fail } from '../failures.ts';
import { newId } from '../ids.ts';
import { PRESIGNED_FEED_MAX_BYTES, type Feed, type FeedFormat, type FeedStatus } from '../schemas/catalog.ts';

/** Presigned upload URLs are valid this long. */
export const UPLOAD_URL_SECONDS = 15 * 60;

/** The feed a request carries: a file sent with it (CSV or JSON body, multipart `file` part), or a presigned upload to come. */
export type FeedUpload = { format: FeedFormat; filename: string | null } & ({ kind: 'inline'; bytes: Buffer } | { kind: 'presigned' });

export interface FeedWithUploadUrl extends Feed {
  uploadUrl: string;
  uploadMethod: 'PUT';
  uploadHeaders: Record<string, string>;
  uploadExpiresAt: string;
  uploadMaxBytes: number;
}

export function toFeed(item: FeedItem): Feed {
  const { objectKey: _objectKey, leaseToken: _leaseToken, leaseUntil: _leaseUntil, checkpoint: _checkpoint, ...feed } = item;
  return feed;
}

const notFound = (feedId: string) => fail.notFound(`Feed ${feedId} not found`);

async function presignedAnswer(feed: FeedItem, now: Date): Promise<FeedWithUploadUrl> {
  return {
    ...toFeed(feed),
    uploadUrl: await presignFeedUpload(feed.objectKey, UPLOAD_URL_SECONDS),
    uploadMethod: 'PUT',
    uploadHeaders: {},
    uploadExpiresAt: new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
    uploadMaxBytes: PRESIGNED_FEED_MAX_BYTES,
  };
}

export async function uploadFeed(sellerId: string, upload: FeedUpload, now: Date): Promise<Feed | FeedWithUploadUrl> {
  const feedId = newId('feed');
  const { format } = upload;
  const objectKey = newFeedObjectKey(sellerId, feedId, format);
  const inline = upload.kind === 'inline';
  // Stored first: the record never points at a file that is not there.
  if (upload.kind === 'inline') await putFeedFile(objectKey, upload.bytes, format);
  const item: FeedItem = {
    feedId,
    sellerId,
    format,
    status: inline ? 'queued' : 'awaiting_upload',
    filename: upload.filename,
    sizeBytes: upload.kind === 'inline' ? upload.bytes.length : null,
    rowsTotal: 0,
    rowsSucceeded: 0,
    rowsFailed: 0,
    errors: [],
    warnings: [],
    attempts: 0,
    failureReason: null,
    createdAt: now.toISOString(),
    startedAt: null,
    completedAt: null,
    objectKey,
    leaseToken: NO_LEASE,
    leaseUntil: inline ? queuedDueAt(now) : null,
    checkpoint: null,
  };
  await createFeed(item);
  return inline ? toFeed(item) : presignedAnswer(item, now);
}

export async function getOwnFeed(sellerId: string, feedId: string): Promise<Feed> {
  const item = await getFeed(sellerId, feedId);
  if (!item) throw notFound(feedId);
  return toFeed(item);
}

export async function listOwnFeeds(sellerId: string, query: { limit: number; cursor?: string | undefined; status?: FeedStatus | undefined }) {
  const scope = `feeds:${sellerId}:${query.status ?? '*'}`;
  const page = await listFeeds(sellerId, { limit: query.limit, startKey: decodeCursor(scope, query.cursor), status: query.status });
  return { items: page.items.map(toFeed), nextCursor: encodeCursor(scope, page.lastKey) };
}

const stateConflict = (feed: FeedItem, message: string) => fail.conflict(message, [{ path: 'status', message: `The feed is ${feed.status}` }]);

/**
 * failed → queued. Without a file, the stored one is processed again (copied to a new object, whose
 * notification starts the run); with a file (inline or presigned), the corrected file replaces it.
 */
export async function retryFeed(sellerId: string, feedId: string, replacement: FeedUpload | undefined, now: Date): Promise<Feed | FeedWithUploadUrl> {
  const feed = await getFeed(sellerId, feedId, { consistent: true });
  if (!feed) throw notFound(feedId);
  if (feed.status !== 'failed') throw retryRefused(feed);
  const format = replacement?.format ?? feed.format;
  const objectKey = newFeedObjectKey(sellerId, feedId, format);
  const filename = replacement?.filename ?? feed.filename;
  const awaiting = replacement?.kind === 'presigned';
  const sizeBytes = replacement?.kind === 'inline' ? replacement.bytes.length : awaiting ? null : feed.sizeBytes;
  let updated: FeedItem;
  try {
    // The record first, so that the new object's notification finds it waiting for exactly that file.
    updated = await requeueFeed(feed, { objectKey, status: awaiting ? 'awaiting_upload' : 'queued', format, filename, sizeBytes }, now);
  } catch (error) {
    if (error instanceof FeedStateChanged) throw error.current ? retryRefused(error.current) : notFound(feedId);
    throw error;
  }
  if (replacement?.kind === 'inline') await putFeedFile(objectKey, replacement.bytes, format);
  else if (!replacement) await copyFeedFile(feed.objectKey, objectKey);
  return awaiting ? presignedAnswer(updated, now) : toFeed(updated);
}

function retryRefused(feed: FeedItem) {
  return stateConflict(feed, `Only a failed feed can be retried; this one is ${feed.status}`);
}

function deleteRefused(feed: FeedItem) {
  return stateConflict(feed, `A ${feed.status} feed cannot be deleted; wait until it has completed or failed`);
}

/** Removes the record and its stored files (never the products); refused while queued or processing. */
export async function deleteOwnFeed(sellerId: string, feedId: string): Promise<void> {
  const feed = await getFeed(sellerId, feedId, { consistent: true });
  if (!feed) throw notFound(feedId);
  if (feed.status === 'queued' || feed.status === 'processing') throw deleteRefused(feed);
  try {
    await deleteFeedRecord(feed);
  } catch (error) {
    if (error instanceof FeedStateChanged) throw error.current ? deleteRefused(error.current) : notFound(feedId);
    throw error;
  }
  await deleteFeedFiles(sellerId, feedId);
}
