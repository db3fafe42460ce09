// The emulated SQS event source: batches, partial batch failures, redelivery after the visibility
// timeout, and the dead-letter queue after maxReceiveCount (fauxqs's RedrivePolicy).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClientConfig, localQueueArn, localQueueUrl } from '../../lib/local/aws.ts';
import { startLocalFauxqs, type LocalFauxqs } from '../../lib/local/fauxqs.ts';
import { recordsToDelete, startSqsPoller, type SqsPoller } from '../../lib/local/sqs-poller.ts';
import { handler, invocations } from './fixtures/recording-handler.ts';

const QUEUE = 'poller-test';
const DLQ = 'poller-test-dlq';
const VISIBILITY_TIMEOUT_SECONDS = 1;
const MAX_RECEIVE_COUNT = 2;

let dataDir: string;
let fauxqs: LocalFauxqs;
let sqs: SQSClient;
let poller: SqsPoller;
let queueUrl: string;
let dlqUrl: string;
const loggedErrors: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sqs-poller-'));
  fauxqs = await startLocalFauxqs({ dataDir });
  sqs = new SQSClient(localClientConfig(fauxqs.endpoint));
  await sqs.send(new CreateQueueCommand({ QueueName: DLQ }));
  await sqs.send(
    new CreateQueueCommand({
      QueueName: QUEUE,
      Attributes: {
        VisibilityTimeout: String(VISIBILITY_TIMEOUT_SECONDS),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: localQueueArn(DLQ), maxReceiveCount: MAX_RECEIVE_COUNT }),
      },
    }),
  );
  queueUrl = localQueueUrl(fauxqs.endpoint, QUEUE);
  dlqUrl = localQueueUrl(fauxqs.endpoint, DLQ);
  poller = startSqsPoller({ endpoint: fauxqs.endpoint, queueUrl, queueArn: localQueueArn(QUEUE), batchSize: 10, waitTimeSeconds: 1, functionName: 'webhookDeliverer', handler, logError: (message) => loggedErrors.push(message) });
});

afterAll(async () => {
  await poller.stop();
  sqs.destroy();
  await fauxqs.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every (time, receive count) at which the handler saw a message with this body. */
function receptionsOf(body: string): { at: number; receiveCount: number; record: SQSRecord }[] {
  return invocations.flatMap((invocation, index) =>
    (invocation.event.Records as SQSRecord[])
      .filter((record) => record.body === body)
      .map((record) => ({ at: index, receiveCount: Number(record.attributes.ApproximateReceiveCount), record })),
  );
}

async function dlqBodies(): Promise<string[]> {
  const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 0 }));
  return (received.Messages ?? []).map((message) => message.Body ?? '');
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}

describe('recordsToDelete', () => {
  const records = ['a', 'b', 'c'].map((messageId) => ({ messageId }) as SQSRecord);
  it('deletes everything on success, nothing when the handler threw, all but the reported failures otherwise', () => {
    expect(recordsToDelete(records, { result: undefined, threw: false })).toHaveLength(3);
    expect(recordsToDelete(records, { result: { batchItemFailures: [] }, threw: false })).toHaveLength(3);
    expect(recordsToDelete(records, { threw: true })).toHaveLength(0);
    expect(recordsToDelete(records, { result: { batchItemFailures: [{ itemIdentifier: 'b' }] }, threw: false }).map((r) => r.messageId)).toEqual(['a', 'c']);
  });
  it('keeps the whole batch when a failure names no message of it, as Lambda does', () => {
    expect(recordsToDelete(records, { result: { batchItemFailures: [{ itemIdentifier: 'zzz' }] }, threw: false })).toHaveLength(0);
    expect(recordsToDelete(records, { result: { batchItemFailures: [{ itemIdentifier: '' }] }, threw: false })).toHaveLength(0);
  });
});

it('deletes the successes of a batch, redelivers its failure after the visibility timeout, then dead-letters it', async () => {
  const started = Date.now();
  await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: ['ok-1', 'fail', 'ok-2'].map((body, index) => ({ Id: String(index), MessageBody: body, MessageAttributes: { kind: { DataType: 'String', StringValue: body } } })),
    }),
  );
  await until(() => receptionsOf('fail').length >= MAX_RECEIVE_COUNT, 10_000);
  const failures = receptionsOf('fail');
  expect(failures.map((reception) => reception.receiveCount)).toEqual([1, 2]);
  expect(failures[0]?.record).toMatchObject({
    eventSource: 'aws:sqs',
    eventSourceARN: localQueueArn(QUEUE),
    awsRegion: 'us-east-1',
    messageAttributes: { kind: { dataType: 'String', stringValue: 'fail' } },
  });
  // The successes were handled once and deleted.
  expect(receptionsOf('ok-1')).toHaveLength(1);
  expect(receptionsOf('ok-2')).toHaveLength(1);
  // The second reception came only after the visibility timeout.
  expect(Date.now() - started).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUT_SECONDS * 1000);

  await until(async () => (await dlqBodies()).includes('fail'), 10_000);
  await sleep(VISIBILITY_TIMEOUT_SECONDS * 1000 + 200);
  expect(receptionsOf('fail')).toHaveLength(MAX_RECEIVE_COUNT);
  expect(receptionsOf('ok-1')).toHaveLength(1);
});

it('keeps the whole batch when the handler throws', async () => {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'throw' }));
  await until(() => receptionsOf('throw').length >= 2, 10_000);
  expect(receptionsOf('throw').map((reception) => reception.receiveCount)).toEqual([1, 2]);
  expect(loggedErrors).toContain('[sqs] webhookDeliverer failed; the batch of 1 stays on the queue:');
});
