// S3 event notifications from fauxqs uploads: real-shaped S3Events, only for the watched bucket and
// prefix, each upload exactly once; a failing invocation retried twice, then dead-lettered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localClientConfig } from '../../lib/local/aws.ts';
import { startLocalFauxqs, type LocalFauxqs } from '../../lib/local/fauxqs.ts';
import { encodeEventKey, startS3Notifications, type S3Notifications } from '../../lib/local/s3-notifications.ts';
import { handler, invocations } from './fixtures/recording-handler.ts';

const BUCKET = 'notification-test-bucket';
let dataDir: string;
let fauxqs: LocalFauxqs;
let notifications: S3Notifications;
let s3: S3Client;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 's3-notifications-'));
  fauxqs = await startLocalFauxqs({ dataDir });
  s3 = new S3Client(localClientConfig(fauxqs.endpoint));
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  await s3.send(new CreateBucketCommand({ Bucket: 'another-bucket' }));
  notifications = startS3Notifications({ fauxqs: fauxqs.server, endpoint: fauxqs.endpoint, bucket: BUCKET, prefix: 'incoming/', functionName: 'feedProcessor', handler });
});

afterAll(async () => {
  await notifications.stop();
  s3.destroy();
  await fauxqs.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until<T>(probe: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

it('encodes keys as S3 events do', () => {
  expect(encodeEventKey('incoming/a b+c(1)~.csv')).toBe('incoming/a+b%2Bc%281%29%7E.csv');
});

it('invokes the handler with an ObjectCreated:Put S3Event for each upload under the prefix, once', async () => {
  const put = await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'incoming/feed 1+2.csv', Body: 'sku,price\nA,1\n' }));
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'elsewhere/ignored.csv', Body: 'x' }));
  await s3.send(new PutObjectCommand({ Bucket: 'another-bucket', Key: 'incoming/ignored.csv', Body: 'x' }));

  const first = await until(() => invocations[0]);
  expect(first.functionName).toBe('feedProcessor');
  expect(first.event.Records).toHaveLength(1);
  const record = first.event.Records[0];
  expect(record).toMatchObject({
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: 'us-east-1',
    eventName: 'ObjectCreated:Put',
    s3: {
      bucket: { name: BUCKET, arn: `arn:aws:s3:::${BUCKET}` },
      object: { key: 'incoming/feed+1%2B2.csv', size: 14, eTag: put.ETag?.replace(/"/g, '') },
    },
  });
  expect(Date.parse(record.eventTime)).toBeGreaterThan(Date.now() - 10_000);
  expect(decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '))).toBe('incoming/feed 1+2.csv');

  // The same key again is a new event; nothing is delivered twice.
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'incoming/feed 1+2.csv', Body: 'sku,price\n' }));
  await until(() => invocations[1]);
  await sleep(300);
  expect(invocations).toHaveLength(2);
  expect(invocations[1]?.event.Records[0].s3.object.size).toBe(10);
});

it('retries a failing invocation twice, as Lambda retries asynchronous invocations, then hands its event to the dead-letter hook', async () => {
  const attempts: string[] = [];
  const deadLetters: { key: string; attempts: number; error: string }[] = [];
  const failing = startS3Notifications({
    fauxqs: fauxqs.server,
    endpoint: fauxqs.endpoint,
    bucket: BUCKET,
    prefix: 'failing/',
    functionName: 'brokenProcessor',
    retryDelaysMs: [10, 10],
    handler: (event) => {
      attempts.push(event.Records[0]!.s3.object.key);
      return Promise.reject(new Error('cannot process'));
    },
    deadLetter: (event, error, count) => {
      deadLetters.push({ key: event.Records[0]!.s3.object.key, attempts: count, error: (error as Error).message });
      return Promise.resolve();
    },
    logError: () => undefined,
  });
  try {
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'failing/feed.csv', Body: 'x' }));
    const letter = await until(() => deadLetters[0]);
    expect(letter).toEqual({ key: 'failing/feed.csv', attempts: 3, error: 'cannot process' });
    expect(attempts).toEqual(['failing/feed.csv', 'failing/feed.csv', 'failing/feed.csv']);
  } finally {
    await failing.stop();
  }
});
