// Feed files in the feeds bucket, under their seller's prefix: `feeds/<sellerId>/<feedId>/<upload>.<ext>`.
// Every upload and every retry writes a new object, whose ObjectCreated notification starts a run;
// the feed record names the one object it processes, so a late notification for an older file is ignored.
// Requests reach AWS, or the local runtime's emulator through AWS_ENDPOINT_URL_S3 (./s3-requests.ts).
import { Readable } from 'node:stream';
import { config, requiredSetting } from '../config.ts';
import { newId } from '../ids.ts';
import type { FeedFormat } from '../schemas/catalog.ts';

export { FEED_FILES_PREFIX } from './feed-file-keys.ts';
import { FEED_FILES_PREFIX } from './feed-file-keys.ts';
import { copyObject, deleteObjects, getObject, headObject, listObjectsV2, presignPutObject, putObject } from './s3-requests.ts';

export const FEED_CONTENT_TYPES: Record<FeedFormat, string> = { csv: 'text/csv', json: 'application/json' };

/** A new object key for an upload of this feed. */
export function newFeedObjectKey(sellerId: string, feedId: string, format: FeedFormat): string {
  return `${FEED_FILES_PREFIX}${sellerId}/${feedId}/${newId('request').slice(4)}.${format}`;
}

/** `feeds/<sellerId>/<feedId>/…` → its seller and feed; undefined for any other key. */
export function parseFeedObjectKey(key: string): { sellerId: string; feedId: string } | undefined {
  const match = /^feeds\/(agt_[0-9A-Z]+)\/(feed_[0-9A-Z]+)\/[0-9A-Z]+\.(?:csv|json)$/.exec(key);
  return match ? { sellerId: match[1] as string, feedId: match[2] as string } : undefined;
}

export async function putFeedFile(key: string, body: Buffer, format: FeedFormat): Promise<void> {
  await putObject({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key, Body: body, ContentType: FEED_CONTENT_TYPES[format] });
}

/** A new object with the same content: its notification starts a new run. */
export async function copyFeedFile(from: string, to: string): Promise<void> {
  const bucket = requiredSetting('FEEDS_BUCKET_NAME');
  await copyObject({ Bucket: bucket, Key: to, CopySource: `${bucket}/${encodeURIComponent(from).replace(/%2F/g, '/')}` });
}

/** The object's size in bytes; undefined when it does not exist. */
export async function feedFileSize(key: string): Promise<number | undefined> {
  try {
    return (await headObject({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key })).contentLength;
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotFound' || error.name === 'NoSuchKey')) return undefined;
    throw error;
  }
}

/**
 * The file as a stream, from `fromByte` on (a ranged GET): parsing never holds the whole file. From
 * the end of the file on (a run checkpointed after its last row), that is nothing: S3 refuses such a
 * range as not satisfiable.
 */
export async function openFeedFile(key: string, fromByte = 0): Promise<Readable> {
  try {
    const result = await getObject({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key, ...(fromByte > 0 ? { Range: `bytes=${fromByte}-` } : {}) });
    return result.body;
  } catch (error) {
    if (fromByte > 0 && error instanceof Error && error.name === 'InvalidRange') return Readable.from([]);
    throw error;
  }
}

/** Every stored file of a feed. */
export async function deleteFeedFiles(sellerId: string, feedId: string): Promise<void> {
  const bucket = requiredSetting('FEEDS_BUCKET_NAME');
  const prefix = `${FEED_FILES_PREFIX}${sellerId}/${feedId}/`;
  let token: string | undefined;
  do {
    const listed = await listObjectsV2({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) });
    if (listed.keys.length > 0) await deleteObjects({ Bucket: bucket, Delete: { Objects: listed.keys.map((key) => ({ Key: key })) } });
    token = listed.nextContinuationToken;
  } while (token);
}

/**
 * A URL that accepts a PUT of the file, without an API key, for `expiresInSeconds`. No header is
 * signed beyond Host, so any client's PUT works (the content type is not checked: the feed's format is).
 * It names the endpoint it was signed for: locally the upload proxy, in AWS S3 itself.
 */
export function presignFeedUpload(key: string, expiresInSeconds: number): Promise<string> {
  return presignPutObject({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key }, expiresInSeconds, config().FEEDS_UPLOAD_ENDPOINT);
}
