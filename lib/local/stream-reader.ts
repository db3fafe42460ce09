// A DynamoDB Streams event source mapping, emulated: reads DynamoDB Local's stream of the table shard by
// shard, keeps the records whose new image is an item of the worker's entities (the filter the CDK
// stack puts on the mapping), and hands them to the handler in batches, in stream order. A batch whose
// handler throws is bisected and its failing record retried (after a pause) before anything later, as
// the deployed mapping's bisectBatchOnError and retryAttempts do, and a record that fails every retry
// is handed to `deadLetter` (the worker's dead-letter queue, as the mapping's on-failure destination);
// the position of each shard is saved in the data folder after each batch, so a restart resumes where
// the last run stopped (at-least-once).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type _Record as StreamRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { localClientConfig } from './aws.ts';
import { STREAM_RETRY_ATTEMPTS } from '../../shared/workers.ts';
import { deliverBisecting } from './bisect-retry.ts';
import { lambdaContext, type LambdaHandler } from './lambda.ts';
import { startPollingLoop } from './polling-loop.ts';

const POLL_MS = 200;
const ERROR_BACKOFF_MS = 1_000;
const DESCRIBE_EVERY_MS = 5_000;
/** GetRecords' maximum. */
const GET_RECORDS_LIMIT = 1000;

export interface StreamReaderOptions {
  /** The DynamoDB Local endpoint. */
  endpoint: string;
  tableName: string;
  dataDir: string;
  functionName: string;
  /** Only records whose new image's `entity` is one of these. */
  entities: readonly string[];
  batchSize: number;
  /** Attempts of a record that fails alone before it is skipped; default STREAM_RETRY_ATTEMPTS, as deployed. */
  retryAttempts?: number;
  timeoutMs: number;
  handler: LambdaHandler<DynamoDBStreamEvent>;
  /** Receives a record that failed every attempt, before the reader moves past it; a rejection keeps the record (tried again next poll). */
  deadLetter?: (failed: SkippedRecord) => Promise<void>;
  logError?: (message: string, error?: unknown) => void;
}

/** A record given up on, as the mapping's failure record describes it. */
export interface SkippedRecord {
  streamArn: string;
  shardId: string;
  sequenceNumber: string;
  arrival: Date | undefined;
  attempts: number;
  error: unknown;
}

interface ShardState {
  shardId: string;
  parentShardId?: string | undefined;
  iterator?: string | undefined;
  /** Set when the shard has no more records (closed and read to its end). */
  done: boolean;
}

type Checkpoints = Record<string, string>;

export function startStreamReader(options: StreamReaderOptions): { stop(): Promise<void>; idle(): Promise<void> } {
  const logError = options.logError ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const dynamodb = new DynamoDBClient(localClientConfig(options.endpoint));
  const streams = new DynamoDBStreamsClient(localClientConfig(options.endpoint));
  const checkpointFile = join(options.dataDir, `stream-${options.functionName}.json`);
  const checkpoints = readCheckpoints(checkpointFile);
  const shards = new Map<string, ShardState>();
  const entities = new Set(options.entities);
  /** Failed attempts of records that failed alone, by sequence number. */
  const failedAttempts = new Map<string, number>();
  let streamArn: string | undefined;
  let describedAt = 0;
  let stopped = false;
  let caughtUp: (() => void)[] = [];

  const describe = async () => {
    if (!streamArn) {
      const table = await dynamodb.send(new DescribeTableCommand({ TableName: options.tableName }));
      streamArn = table.Table?.LatestStreamArn;
      if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
    }
    for (const shard of await listShards(streams, streamArn)) {
      if (shard.ShardId && !shards.has(shard.ShardId)) shards.set(shard.ShardId, { shardId: shard.ShardId, parentShardId: shard.ParentShardId, done: false });
    }
    describedAt = Date.now();
  };

  const iteratorFor = async (shard: ShardState): Promise<string | undefined> => {
    const after = checkpoints[shard.shardId];
    try {
      const result = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.shardId,
          ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      return result.ShardIterator;
    } catch (error) {
      if (error instanceof TrimmedDataAccessException) {
        delete checkpoints[shard.shardId];
        return iteratorFor(shard);
      }
      throw error;
    }
  };

  const saveAt = (shard: ShardState, record: StreamRecord | undefined) => {
    const sequence = record?.dynamodb?.SequenceNumber;
    if (!sequence) return;
    checkpoints[shard.shardId] = sequence;
    writeCheckpoints(checkpointFile, checkpoints);
  };

  /**
   * Hands a batch to the handler, as the mapping does with bisectBatchOnError and retryAttempts
   * (lib/local/bisect-retry.ts): a record to retry rejects, and the poll pauses and reads again from the
   * shard's checkpoint, that record first; one given up on goes to the dead-letter hook and is skipped.
   */
  const handle = (shard: ShardState, batch: readonly StreamRecord[]): Promise<void> =>
    deliverBisecting(batch, {
      invoke: (records) => options.handler({ Records: records.map((record) => toLambdaRecord(record, streamArn)) }, lambdaContext(options.functionName, options.timeoutMs)),
      keyOf: (record) => record.dynamodb?.SequenceNumber ?? '',
      failedAttempts,
      retryAttempts: options.retryAttempts ?? STREAM_RETRY_ATTEMPTS,
      giveUp: async (record, attempts, error) => {
        const sequence = record.dynamodb?.SequenceNumber ?? '';
        if (options.deadLetter) {
          // Not skipped until its dead letter is sent: a failed send leaves the record to the next poll.
          await options.deadLetter({
            streamArn: streamArn ?? '',
            shardId: shard.shardId,
            sequenceNumber: sequence,
            arrival: record.dynamodb?.ApproximateCreationDateTime,
            attempts,
            error,
          });
        }
        logError(`[stream] ${options.functionName} skipped record ${sequence} after ${attempts} failed attempts${options.deadLetter ? ' (sent to its dead-letter queue)' : ''}:`, error);
      },
      // Handled (or skipped): a later failure resumes after it.
      passed: (records) => saveAt(shard, records.at(-1)),
    });

  /** Reads one batch from a shard; true when records were read. */
  const readShard = async (shard: ShardState): Promise<boolean> => {
    shard.iterator ??= await iteratorFor(shard);
    if (!shard.iterator) {
      shard.done = true;
      return false;
    }
    let result;
    try {
      // A full page whatever the batch size: most records are other entities', and each call costs DynamoDB Local as much as its records.
      result = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: GET_RECORDS_LIMIT }));
    } catch (error) {
      if (error instanceof ExpiredIteratorException) {
        shard.iterator = undefined;
        return false;
      }
      throw error;
    }
    const records = result.Records ?? [];
    const matching = records.filter((record) => {
      const entity = record.dynamodb?.NewImage?.entity?.S;
      return entity !== undefined && entities.has(entity);
    });
    for (let i = 0; i < matching.length; i += options.batchSize) await handle(shard, matching.slice(i, i + options.batchSize));
    saveAt(shard, records.at(-1));
    shard.iterator = result.NextShardIterator;
    if (!shard.iterator) shard.done = true;
    return records.length > 0;
  };

  const poll = async () => {
    if (!streamArn || Date.now() - describedAt > DESCRIBE_EVERY_MS) await describe();
    let busy = false;
    for (const shard of shards.values()) {
      if (shard.done || stopped) continue;
      // A child shard waits until its parent is read to its end: per-item order holds across a split.
      const parent = shard.parentShardId ? shards.get(shard.parentShardId) : undefined;
      if (parent && !parent.done) continue;
      while (!stopped && (await readShard(shard))) busy = true;
    }
    if (!busy) {
      const waiting = caughtUp;
      caughtUp = [];
      for (const resolve of waiting) resolve();
    }
  };

  const loop = startPollingLoop({
    step: poll,
    nextDelay: ({ failed }) => (failed ? ERROR_BACKOFF_MS : POLL_MS),
    onError: (error) => {
      // The failed record keeps its shard's position, so it is read again (until its attempts run out).
      for (const shard of shards.values()) shard.iterator = undefined;
      logError(`[stream] ${options.functionName} failed:`, error);
    },
  });
  void loop.runNow();

  return {
    async stop() {
      stopped = true;
      await loop.stop();
      dynamodb.destroy();
      streams.destroy();
    },
    /** Resolves once a poll finds nothing new (tests and benchmarks waiting for the stream). */
    idle() {
      return new Promise((resolve) => caughtUp.push(resolve));
    },
  };
}

/** Each shard's last sequence number handled (or skipped), from the data folder. */
function readCheckpoints(file: string): Checkpoints {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Checkpoints) : {};
}

/** Replaces the checkpoint file atomically. */
function writeCheckpoints(file: string, checkpoints: Checkpoints): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(checkpoints));
  renameSync(temporary, file);
}

/** Every shard of the stream, all pages of DescribeStream. */
async function listShards(streams: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
  const found: Shard[] = [];
  let start: string | undefined;
  do {
    const described = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
    found.push(...(described.StreamDescription?.Shards ?? []));
    start = described.StreamDescription?.LastEvaluatedShardId;
  } while (start);
  return found;
}

/** A stream record as Lambda's event carries it. */
function toLambdaRecord(record: StreamRecord, streamArn: string | undefined): DynamoDBRecord {
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: repairEmptyMaps(record.dynamodb) as DynamoDBRecord['dynamodb'],
  };
}

/**
 * The Streams client turns an empty map attribute (`{"M": {}}`) into `{}`, which no unmarshaller
 * accepts; Lambda's events carry `{"M": {}}`. Puts it back (an empty list keeps its `L`).
 */
function repairEmptyMaps<T>(value: T): T {
  if (Array.isArray(value)) return (value as unknown[]).map((item) => repairEmptyMaps(item)) as T;
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const isEmptyObject = (inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) && !(inner instanceof Uint8Array) && Object.keys(inner).length === 0;
  const repaired: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    repaired[key] = isEmptyObject(inner) && key !== 'M' ? { M: {} } : repairEmptyMaps(inner);
  }
  return repaired as T;
}
