// Feed files in the feeds bucket, under their seller's prefix: `feeds/<sellerId>/<feedId>/<upload>.<ext>`.
// Every upload and every retry writes a new object, whose ObjectCreated notification starts a run;
// the feed record names the one object it processes, so a late notification for an older file is ignored.
// The S3 client reaches AWS, or the local runtime's emulator through AWS_ENDPOINT_URL_S3.
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config, requiredSetting } from '../config.ts';
import { newId } from '../ids.ts';
import type { FeedFormat } from '../schemas/catalog.ts';

export { FEED_FILES_PREFIX } from './feed-file-keys.ts';
import { FEED_FILES_PREFIX } from './feed-file-keys.ts';

/** The feeds bucket client, at module scope; exported so that the local runtime can check grants on it.
 * Pure: a bundle whose handler never touches the bucket (listing feeds) drops it and the S3 client. */
export const feedFilesClient = /* @__PURE__ */ new S3Client({});
const s3 = feedFilesClient;
/** Presigned URLs name the endpoint they were signed for: locally the upload proxy, in AWS S3 itself. */
let presigner: S3Client | undefined;

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
    const result = await s3.send(
      new GetObjectCommand({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key, ...(fromByte > 0 ? { Range: `bytes=${fromByte}-` } : {}) }),
    );
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
    const keys = (listed.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
    if (keys.length > 0) await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
    token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
  } while (token);
}

/**
 * A URL that accepts a PUT of the file, without an API key, for `expiresInSeconds`. No header is
 * signed beyond Host, so any client's PUT works (the content type is not checked: the feed's format is).
 */
export async function presignFeedUpload(key: string, expiresInSeconds: number): Promise<string> {
  const endpoint = config().FEEDS_UPLOAD_ENDPOINT;
  // No checksum parameters in the URL: the SDK would otherwise sign the checksum of an empty body.
  presigner ??= new S3Client({ ...(endpoint ? { endpoint, forcePathStyle: true } : {}), requestChecksumCalculation: 'WHEN_REQUIRED' });
  return getSignedUrl(
    presigner,
    new PutObjectCommand({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key }),
    { expiresIn: expiresInSeconds },
  );
}
