// The feeds bucket's S3 client (feed files under `feeds/`, search snapshots under `search-index/`), at
// module scope: created once per container, traced (shared/tracer.ts). It reaches AWS, or the local
// runtime's emulator (fauxqs) through the standard AWS_ENDPOINT_URL_S3 variable, which is addressed
// path-style; S3 itself is addressed by the bucket's virtual host.
import { DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { traced } from '../tracer.ts';

export const feedsBucketClient = traced(new S3Client({
  forcePathStyle: process.env.AWS_ENDPOINT_URL_S3 !== undefined,
  // Checksums only where S3 requires one (DeleteObjects). By default the SDK would also put the CRC32
  // of an empty body into every presigned PUT URL, which S3 then holds the uploaded file to. Bodies we
  // send are Buffers, whose SHA-256 the signature covers and S3 checks.
  requestChecksumCalculation: 'WHEN_REQUIRED',
}));

/** Deletes up to 1,000 keys; throws when S3 names any it could not delete (a quiet DeleteObjects answers 200 either way). */
export async function deleteObjects(bucket: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const result = await feedsBucketClient.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
  const failed = result.Errors ?? [];
  if (failed.length > 0) {
    const first = failed[0];
    throw Object.assign(new Error(`S3 did not delete ${failed.length} object(s), ${first?.Key ?? '?'} first: ${first?.Message ?? ''}`), { name: first?.Code ?? 'UnknownError' });
  }
}
