// The local stream reader against DynamoDB Local's stream of the test table: a record its handler
// cannot handle is isolated by halving the batch, retried, handed to the dead-letter hook and skipped,
// and every record around it is handled, in order, as the deployed event source mapping does with
// bisectBatchOnError, retryAttempts and its on-failure destination.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, expect, it } from 'vitest';
import { startStreamReader, type SkippedRecord } from '../../lib/local/stream-reader.ts';
import { documentClient, tableName } from '../../shared/data/client.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'stream-reader-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('isolates a record its handler keeps failing on, retries it, skips it, and handles the rest in order', { timeout: 60_000 }, async () => {
  const run = randomUUID();
  const entity = `streamProbe${run.slice(0, 8)}`;
  const names = ['first', 'second', 'poison', 'fourth', 'fifth'];
  for (const name of names) await documentClient.send(new PutCommand({ TableName: tableName(), Item: { pk: `PROBE#${run}`, sk: name, entity, name } }));

  const handled: string[] = [];
  const calls: string[][] = [];
  const errors: string[] = [];
  const deadLetters: SkippedRecord[] = [];
  const reader = startStreamReader({
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB as string,
    tableName: tableName(),
    dataDir,
    functionName: 'streamProbe',
    entities: [entity],
    batchSize: 10,
    retryAttempts: 2,
    timeoutMs: 10_000,
    handler: (event: DynamoDBStreamEvent) => {
      const batch = event.Records.map((record) => record.dynamodb?.NewImage?.name?.S as string);
      calls.push(batch);
      if (batch.includes('poison')) return Promise.reject(new Error('cannot handle poison'));
      handled.push(...batch);
      return Promise.resolve();
    },
    deadLetter: (skipped) => {
      deadLetters.push(skipped);
      return Promise.resolve();
    },
    logError: (message) => errors.push(message),
  });
  try {
    const deadline = Date.now() + 45_000;
    while (handled.length < 4) {
      if (Date.now() > deadline) throw new Error(`handled ${handled.join(', ')} after ${JSON.stringify(calls)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await reader.stop();
  }
  expect(handled).toEqual(['first', 'second', 'fourth', 'fifth']);
  // Alone, the bad record failed its first attempt and both retries; then it was skipped.
  expect(calls.filter((batch) => batch.length === 1 && batch[0] === 'poison')).toHaveLength(3);
  // It first came in a batch with its neighbours, and was isolated by halving that batch. The first batch
  // need not hold all five: the reader starts at the shared test table's oldest record, and a GetRecords
  // page (or a shard) may end between two of the writes, as it may for the deployed mapping.
  expect(calls[0]?.[0]).toBe('first');
  expect(calls.find((batch) => batch.includes('poison'))?.length).toBeGreaterThan(1);
  expect(errors.filter((message) => message.includes('skipped record'))).toHaveLength(1);
  // What the mapping's failure record names: the stream, the shard and the record's sequence number.
  expect(deadLetters).toHaveLength(1);
  expect(deadLetters[0]).toMatchObject({ attempts: 3, streamArn: expect.stringContaining(':table/'), shardId: expect.any(String) });
  expect(errors.find((message) => message.includes('skipped record'))).toContain(`skipped record ${deadLetters[0]!.sequenceNumber} after 3 failed attempts (sent to its dead-letter queue)`);
});
