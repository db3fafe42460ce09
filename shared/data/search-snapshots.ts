// Snapshots of the search replica in the feeds bucket, under `search-index/`: the SQLite file of a
// replica at a log sequence. A search instance starts from the newest one and replays the log after it.
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { requiredSetting } from '../config.ts';
import { forEachConcurrently } from '../concurrency.ts';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  deleteObjects,
  getObject,
  listObjectsV2,
  putObject,
  uploadPart,
} from './s3-requests.ts';

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

/** Parts uploaded at once: two parts' buffers (16 MiB) is all a snapshot upload holds in memory. */
const SNAPSHOT_PART_CONCURRENCY = 2;
const SNAPSHOT_CONTENT_TYPE = 'application/vnd.sqlite3';

/**
 * Uploads the file in one PUT, or in parts when it is larger than a part; a failed multipart upload
 * is aborted, so that its parts are not stored (and billed) until the bucket's lifecycle removes them.
 */
export async function uploadSnapshot(key: string, file: string): Promise<void> {
  const Bucket = requiredSetting('FEEDS_BUCKET_NAME');
  const handle = await open(file);
  try {
    const { size } = await handle.stat();
    const readPart = async (index: number): Promise<Buffer> => {
      const length = Math.min(SNAPSHOT_PART_BYTES, size - index * SNAPSHOT_PART_BYTES);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, index * SNAPSHOT_PART_BYTES);
      if (bytesRead !== length) throw new Error(`The snapshot file ${file} changed while it was uploaded`);
      return buffer;
    };
    if (size <= SNAPSHOT_PART_BYTES) {
      await putObject({ Bucket, Key: key, Body: await readPart(0), ContentType: SNAPSHOT_CONTENT_TYPE });
      return;
    }
    const UploadId = await createMultipartUpload({ Bucket, Key: key, ContentType: SNAPSHOT_CONTENT_TYPE });
    try {
      const parts = Array.from({ length: Math.ceil(size / SNAPSHOT_PART_BYTES) }, (_, index) => ({ PartNumber: index + 1, ETag: '' }));
      await forEachConcurrently(parts, SNAPSHOT_PART_CONCURRENCY, async (part, index) => {
        part.ETag = await uploadPart({ Bucket, Key: key, UploadId, PartNumber: part.PartNumber, Body: await readPart(index) });
      });
      await completeMultipartUpload({ Bucket, Key: key, UploadId, Parts: parts });
    } catch (error) {
      await abortMultipartUpload({ Bucket, Key: key, UploadId }).catch(() => undefined);
      throw error;
    }
  } finally {
    await handle.close();
  }
}

/** Streams the snapshot into `file`. */
export async function downloadSnapshot(key: string, file: string): Promise<void> {
  const result = await getObject({ Bucket: requiredSetting('FEEDS_BUCKET_NAME'), Key: key });
  await pipeline(result.body, createWriteStream(file));
}

/** Removes snapshots older than `keepFromKey` (keys sort by sequence). */
export async function deleteSnapshotsBefore(keepFromKey: string): Promise<void> {
  const bucket = requiredSetting('FEEDS_BUCKET_NAME');
  const listed = await listObjectsV2({ Bucket: bucket, Prefix: SEARCH_SNAPSHOTS_PREFIX });
  const old = listed.keys.filter((key) => key < keepFromKey).map((key) => ({ Key: key }));
  if (old.length > 0) await deleteObjects({ Bucket: bucket, Delete: { Objects: old } });
}
