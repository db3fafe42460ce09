// Search snapshots through the S3 client against the local emulator (fauxqs): one PUT for a
// small file, a multipart upload for one larger than a part, read back byte for byte; old ones deleted.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localClientConfig } from '../../lib/local/aws.ts';
import { startLocalFauxqs, type LocalFauxqs } from '../../lib/local/fauxqs.ts';
import { deleteSnapshotsBefore, downloadSnapshot, snapshotKeyFor, uploadSnapshot } from '../../shared/data/search-snapshots.ts';

const BUCKET = 'snapshot-test-bucket';
let dataDir: string;
let fauxqs: LocalFauxqs;
let s3: S3Client;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'search-snapshots-'));
  fauxqs = await startLocalFauxqs({ dataDir });
  s3 = new S3Client(localClientConfig(fauxqs.endpoint));
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  Object.assign(process.env, { FEEDS_BUCKET_NAME: BUCKET, AWS_ENDPOINT_URL_S3: fauxqs.endpoint, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1' });
});

afterAll(async () => {
  s3.destroy();
  await fauxqs.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function roundTrip(bytes: number, seq: number): Promise<void> {
  const file = join(dataDir, `upload-${seq}.sqlite`);
  const content = randomBytes(bytes);
  writeFileSync(file, content);
  await uploadSnapshot(snapshotKeyFor(seq), file);
  const copy = join(dataDir, `download-${seq}.sqlite`);
  await downloadSnapshot(snapshotKeyFor(seq), copy);
  expect(readFileSync(copy).equals(content)).toBe(true);
}

it('stores a small snapshot in one PUT and reads it back', async () => {
  await roundTrip(300_000, 1);
});

it('stores a snapshot larger than a part (8 MiB) in parts, completes the upload, and reads it back', async () => {
  await roundTrip(8 * 1024 * 1024 * 2 + 12_345, 2);
  const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
  expect(uploads.Uploads ?? []).toEqual([]);
});

it('deletes the snapshots before the one kept', async () => {
  await roundTrip(1_000, 3);
  await deleteSnapshotsBefore(snapshotKeyFor(3));
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  expect((listed.Contents ?? []).map((object) => object.Key)).toEqual([snapshotKeyFor(3)]);
});
