// Snapshots of the search replica in the feeds bucket, under `search-index/`: the SQLite file of a
// replica at a log sequence. A search instance starts from the newest one and replays the log after it.
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { requiredSetting } from '../config.ts';
import { deleteObjects, feedsBucketClient as s3 } from './feeds-bucket.ts';
import { SEARCH_SNAPSHOTS_PREFIX } from './search-snapshot-keys.ts';

export { SEARCH_SNAPSHOTS_PREFIX };

export function snapshotKeyFor(seq: number): string {
  return `${SEARCH_SNAPSHOTS_PREFIX}${String(seq).padStart(12, '0')}.sqlite`;
}

/**
 * 8 MiB parts: S3 takes up to 10,000 parts (snapshots to 80 GB, where one PUT stops at 5 GB), and the
 * local emulator takes at most 11 MiB per request.
 */
const SNAPSHOT_PART_BYTES = 8 * 1024 * 1024;

/**
 * Uploads the file in one PUT, or in parts (two at once: 16 MiB in memory) when it is larger than a
 * part. A failed multipart upload is aborted, so that its parts are not stored (and billed) until the
 * bucket's lifecycle removes them.
 */
export async function uploadSnapshot(key: string, file: string): Promise<void> {
  const upload = new Upload({
    client: s3,
    params: { Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key, Body: createReadStream(file), ContentType: 'application/vnd.sqlite3' },
    partSize: SNAPSHOT_PART_BYTES,
    queueSize: 2,
    leavePartsOnError: false,
  });
  await upload.done();
}

/** Streams the snapshot into `file`. */
export async function downloadSnapshot(key: string, file: string): Promise<void> {
  const result = await s3.send(new GetObjectCommand({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key }));
  await pipeline(result.Body as Readable, createWriteStream(file));
}

/** Removes snapshots older than `keepFromKey` (keys sort by sequence). */
export async function deleteSnapshotsBefore(keepFromKey: string): Promise<void> {
  const bucket = requiredSetting('FEEDS_BUCKET_NAME');
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: SEARCH_SNAPSHOTS_PREFIX }));
  await deleteObjects(bucket, (listed.Contents ?? []).flatMap((object) => (object.Key && object.Key < keepFromKey ? [object.Key] : [])));
}
