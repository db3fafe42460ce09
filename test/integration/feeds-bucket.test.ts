// The feeds bucket through the S3 client: against fauxqs (copy, size, delete of a feed's files), and,
// with aws-sdk-client-mock, the answers fauxqs never gives: a DeleteObjects that names keys S3 could not
// delete, and a snapshot part that fails, whose multipart upload must be aborted.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3ServiceException,
  UploadPartCommand,
  type S3ClientResolvedConfig,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/client-s3';
import { mockClient, type AwsStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { feedsBucketClient } from '../../shared/data/feeds-bucket.ts';
import { copyFeedFile, deleteFeedFiles, feedFileSize, putFeedFile } from '../../shared/data/feed-files.ts';
import { uploadSnapshot } from '../../shared/data/search-snapshots.ts';
import { newId } from '../../shared/ids.ts';

const dir = mkdtempSync(join(tmpdir(), 'feeds-bucket-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('feed files in fauxqs', () => {
  it('copies a file, reads its size, and deletes every file of the feed; a missing file has no size', async () => {
    // Not named as an upload is (agt_… and feed_… ids, an upload id): the feed worker ignores its notifications.
    const seller = `test-${newId('request')}`;
    const prefix = `feeds/${seller}/feed-test`;
    await putFeedFile(`${prefix}/a.csv`, Buffer.from('sku,title\nA-1,One\n'), 'csv');
    await copyFeedFile(`${prefix}/a.csv`, `${prefix}/b c.csv`);
    expect(await feedFileSize(`${prefix}/b c.csv`)).toBe(18);
    await deleteFeedFiles(seller, 'feed-test');
    expect(await feedFileSize(`${prefix}/a.csv`)).toBeUndefined();
    expect(await feedFileSize(`${prefix}/b c.csv`)).toBeUndefined();
  });
});

describe('faults fauxqs cannot produce', () => {
  let s3: AwsStub<ServiceInputTypes, ServiceOutputTypes, S3ClientResolvedConfig>;
  beforeAll(() => {
    s3 = mockClient(feedsBucketClient);
  });
  afterEach(() => s3.reset());
  afterAll(() => s3.restore());

  it('throws when S3 names keys it could not delete, with the first key and its code', async () => {
    s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: 'feeds/agt_1/feed_1/a.csv' }, { Key: 'feeds/agt_1/feed_1/b.csv' }], IsTruncated: false });
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'feeds/agt_1/feed_1/b.csv', Code: 'AccessDenied', Message: 'Access Denied' }] });
    await expect(deleteFeedFiles('agt_1', 'feed_1')).rejects.toMatchObject({ name: 'AccessDenied', message: 'S3 did not delete 1 object(s), feeds/agt_1/feed_1/b.csv first: Access Denied' });
    expect(s3.commandCalls(DeleteObjectsCommand)[0]?.args[0].input.Delete).toEqual({ Objects: [{ Key: 'feeds/agt_1/feed_1/a.csv' }, { Key: 'feeds/agt_1/feed_1/b.csv' }], Quiet: true });
  });

  it('aborts a snapshot’s multipart upload when a part fails, and throws the part’s error', async () => {
    const file = join(dir, 'snapshot.sqlite');
    writeFileSync(file, randomBytes(8 * 1024 * 1024 + 1000));
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'upload-1' });
    s3.on(UploadPartCommand, { PartNumber: 1 }).resolves({ ETag: '"e1"' });
    s3.on(UploadPartCommand, { PartNumber: 2 }).rejects(new S3ServiceException({ name: 'InternalError', $fault: 'server', $metadata: { httpStatusCode: 500 }, message: 'We encountered an internal error' }));
    s3.on(AbortMultipartUploadCommand).resolves({});
    await expect(uploadSnapshot('search-index/000000000001.sqlite', file)).rejects.toMatchObject({ name: 'InternalError' });
    expect(s3.commandCalls(AbortMultipartUploadCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: process.env.FEEDS_BUCKET_NAME, Key: 'search-index/000000000001.sqlite', UploadId: 'upload-1' },
    ]);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toEqual([]);
  });
});
