// Feed files in the feeds bucket, under their seller's prefix: `feeds/<sellerId>/<feedId>/<upload>.<ext>`.
// Every upload and every retry writes a new object, whose ObjectCreated notification starts a run;
// the feed record names the one object it processes, so a late notification for an older file is ignored.
import { Readable } from 'node:stream';
import { CopyObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config, requiredSetting } from '../config.ts';
import { newId } from '../ids.ts';
import type { FeedFormat } from '../schemas/catalog.ts';
import { FEED_FILES_PREFIX } from './feed-file-keys.ts';
import { deleteObjects, feedsBucketClient as s3 } from './feeds-bucket.ts';

export { FEED_FILES_PREFIX };

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
  await s3.send(new PutObjectCommand({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key, Body: body, ContentType: FEED_CONTENT_TYPES[format] }));
}

/** A new object with the same content: its notification starts a new run. */
export async function copyFeedFile(from: string, to: string): Promise<void> {
  const bucket = requiredSetting('FEEDS_BUCKET_NAME');
  await s3.send(new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: `${bucket}/${encodeURIComponent(from).replace(/%2F/g, '/')}` }));
}

/** The object's size in bytes; undefined when it does not exist. */
export async function feedFileSize(key: string): Promise<number | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key }));
    return head.ContentLength ?? 0;
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
    const result = await s3.send(new GetObjectCommand({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key, ...(fromByte > 0 ? { Range: `bytes=${fromByte}-` } : {}) }));
    return result.Body as Readable;
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
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    await deleteObjects(bucket, (listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
    token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
  } while (token);
}

/**
 * A URL that accepts a PUT of the file, without an API key, for `expiresInSeconds`. No header is
 * signed beyond Host, so any client's PUT works (the content type is not checked: the feed's format is).
 * It names the endpoint it was signed for: S3 itself, or in the local runtime its upload proxy
 * (FEEDS_UPLOAD_ENDPOINT, known once the runtime runs), for which a client is made per URL.
 */
export function presignFeedUpload(key: string, expiresInSeconds: number): Promise<string> {
  const endpoint = config().FEEDS_UPLOAD_ENDPOINT;
  const client = endpoint ? new S3Client({ endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' }) : s3;
  return getSignedUrl(client, new PutObjectCommand({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key }), { expiresIn: expiresInSeconds });
}
