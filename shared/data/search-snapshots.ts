// Snapshots of the search replica in the feeds bucket, under `search-index/`: the SQLite file of a
// replica at a log sequence. A search instance starts from the newest one and replays the log after it.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { requiredSetting } from '../config.ts';

import { SEARCH_SNAPSHOTS_PREFIX } from './search-snapshot-keys.ts';

export { SEARCH_SNAPSHOTS_PREFIX };

/** At module scope: one client per instance. */
export const searchSnapshotsClient = new S3Client({});

export function snapshotKeyFor(seq: number): string {
  return `${SEARCH_SNAPSHOTS_PREFIX}${String(seq).padStart(12, '0')}.sqlite`;
}

export async function uploadSnapshot(key: string, file: string): Promise<void> {
  await searchSnapshotsClient.send(
    new PutObjectCommand({
      Bucket: requiredSetting('FEEDS_BUCKET_NAME'),
      Key: key,
      Body: createReadStream(file),
      ContentLength: statSync(file).size,
      ContentType: 'application/vnd.sqlite3',
    }),
  );
}

/** Streams the snapshot into `file`. */
export async function downloadSnapshot(key: string, file: string): Promise<void> {
  const result = await searchSnapshotsClient.send(new GetObjectCommand({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key }));
  await pipeline(result.Body as Readable, createWriteStream(file));
}

/** Removes snapshots older than `keepFromKey` (keys sort by sequence). */
export async function deleteSnapshotsBefore(keepFromKey: string): Promise<void> {
  const bucket = requiredSetting('FEEDS_BUCKET_NAME');
  const listed = await searchSnapshotsClient.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: SEARCH_SNAPSHOTS_PREFIX }));
  const old = (listed.Contents ?? []).flatMap((object) => (object.Key && object.Key < keepFromKey ? [{ Key: object.Key }] : []));
  if (old.length > 0) await searchSnapshotsClient.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: old, Quiet: true } }));
}
