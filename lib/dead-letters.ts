// Replaying a worker's dead letters (`npm run admin -- replay-dead-letters <worker>`), once the cause of
// the failures is fixed. What replay means depends on the worker's trigger:
// - stream: the failure record names a shard and a sequence range, not the records. The records are
//   read back from the stream (it keeps them 24 h), and the worker is handed the *current* table item
//   of each key: stream workers keep state derived from the latest image (the search index) or act
//   idempotently on immutable items (the webhook fan-out), so the current item is always right, and
//   an older image could even undo a later change. Records already gone from the stream cannot be
//   replayed: the worker row's `whenRecordsAreGone` says what recovers them, and the message is removed.
// - s3 and logs (asynchronous invocations): the failure record holds the original event; the worker gets it again.
// - sqs: the dead-letter queue holds the original messages; they go back on the worker's queue.
// A message is deleted once replayed; one whose replay fails stays for a later run.
import { randomUUID } from 'node:crypto';
import { BatchGetItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
  type DynamoDBStreamsClient,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { WorkerDefinition } from '../shared/workers.ts';
import { AsyncFailureRecord, StreamFailureRecord } from './worker-failure-records.ts';

export interface DeadLetterReplayOptions {
  worker: WorkerDefinition;
  sqs: SQSClient;
  /** The queue to replay from: the worker's own dead-letter queue, or its SQS queue's. */
  deadLetterQueueUrl: string;
  /** SQS workers: the queue the messages go back to. */
  sourceQueueUrl?: string;
  streams: DynamoDBStreamsClient;
  dynamodb: DynamoDBClient;
  tableName: string;
  /** Runs the worker with an event: its Lambda function in AWS (named by the failure record), its handler locally. */
  invoke: (event: unknown, functionArn: string) => Promise<void>;
  log: (message: string) => void;
}

export interface ReplayOutcome {
  replayed: number;
  /** Stream failure records whose records have left the stream. */
  gone: number;
  failed: number;
}

/** Hides a message while the run lasts, so that a failed one is not received again in the same run. */
const IN_RUN_VISIBILITY_SECONDS = 900;
/** Pages of an open shard read without reaching the range's end before giving up. */
const MAX_EMPTY_PAGES = 5;

class RecordsGone extends Error {}

/** Sequence numbers are decimal strings of up to 40 digits: compare them as such. */
function sequenceOf(record: StreamRecord): bigint {
  return BigInt(record.dynamodb?.SequenceNumber ?? '0');
}

/** The stream records of the failure record's range that the worker's filter lets through. */
async function failedRecords(streams: DynamoDBStreamsClient, failure: StreamFailureRecord, entities: ReadonlySet<string>): Promise<StreamRecord[]> {
  const info = failure.DDBStreamBatchInfo;
  const start = BigInt(info.startSequenceNumber);
  const end = BigInt(info.endSequenceNumber);
  let iterator: string | undefined;
  try {
    iterator = (
      await streams.send(
        new GetShardIteratorCommand({ StreamArn: info.streamArn, ShardId: info.shardId, ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: info.startSequenceNumber }),
      )
    ).ShardIterator;
  } catch (error) {
    if (error instanceof TrimmedDataAccessException || error instanceof ResourceNotFoundException) throw new RecordsGone();
    throw error;
  }
  const found: StreamRecord[] = [];
  let emptyPages = 0;
  while (iterator && emptyPages < MAX_EMPTY_PAGES) {
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
    const records = page.Records ?? [];
    emptyPages = records.length === 0 ? emptyPages + 1 : 0;
    for (const record of records) {
      const sequence = sequenceOf(record);
      if (sequence > end) return found;
      const entity = record.dynamodb?.NewImage?.entity?.S;
      if (sequence >= start && entity !== undefined && entities.has(entity)) found.push(record);
    }
    iterator = page.NextShardIterator;
  }
  if (found.length === 0) throw new RecordsGone();
  return found;
}

/** The current table items of the records' keys (deleted ones left out), as stream records with them as new images. */
async function withCurrentItems(dynamodb: DynamoDBClient, tableName: string, records: StreamRecord[], streamArn: string) {
  const keys = new Map<string, Record<string, AttributeValue>>();
  for (const record of records) {
    const key = record.dynamodb?.Keys;
    if (key) keys.set(JSON.stringify(key), key);
  }
  const items: Record<string, AttributeValue>[] = [];
  const pending = [...keys.values()];
  while (pending.length > 0) {
    const chunk = pending.splice(0, 100);
    let request: Record<string, { Keys: Record<string, AttributeValue>[]; ConsistentRead: boolean }> | undefined = { [tableName]: { Keys: chunk, ConsistentRead: true } };
    while (request && Object.keys(request).length > 0) {
      const result = await dynamodb.send(new BatchGetItemCommand({ RequestItems: request }));
      items.push(...((result.Responses?.[tableName] ?? [])));
      request = result.UnprocessedKeys as typeof request;
    }
  }
  return items.map((item) => ({
    eventID: randomUUID(),
    eventName: 'MODIFY',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    eventSourceARN: streamArn,
    dynamodb: { Keys: { pk: item.pk, sk: item.sk }, NewImage: item, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  }));
}

async function replayOne(message: Message, options: DeadLetterReplayOptions): Promise<'replayed' | 'gone'> {
  const { worker } = options;
  const body = message.Body ?? '';
  if (worker.trigger.type === 'sqs') {
    if (!options.sourceQueueUrl) throw new Error(`No queue to send ${worker.id}'s messages back to`);
    await options.sqs.send(new SendMessageCommand({ QueueUrl: options.sourceQueueUrl, MessageBody: body }));
    return 'replayed';
  }
  const parsed: unknown = JSON.parse(body);
  if (worker.trigger.type === 'stream') {
    const failure = StreamFailureRecord.parse(parsed);
    let records: StreamRecord[];
    try {
      records = await failedRecords(options.streams, failure, new Set(worker.trigger.entities));
    } catch (error) {
      if (error instanceof RecordsGone) return 'gone';
      throw error;
    }
    const current = await withCurrentItems(options.dynamodb, options.tableName, records, failure.DDBStreamBatchInfo.streamArn);
    if (current.length > 0) await options.invoke({ Records: current }, failure.requestContext.functionArn);
    return 'replayed';
  }
  const failure = AsyncFailureRecord.parse(parsed);
  await options.invoke(failure.requestPayload, failure.requestContext.functionArn);
  return 'replayed';
}

export async function replayDeadLetters(options: DeadLetterReplayOptions): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { replayed: 0, gone: 0, failed: 0 };
  const kept: Message[] = [];
  for (;;) {
    const received = await options.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: options.deadLetterQueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: IN_RUN_VISIBILITY_SECONDS }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) break;
    for (const message of messages) {
      try {
        outcome[await replayOne(message, options)] += 1;
        await options.sqs.send(new DeleteMessageCommand({ QueueUrl: options.deadLetterQueueUrl, ReceiptHandle: message.ReceiptHandle }));
      } catch (error) {
        outcome.failed += 1;
        kept.push(message);
        options.log(`Message ${message.MessageId ?? ''} not replayed (it stays in the queue): ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      }
    }
  }
  // What failed is visible again for the next run.
  for (const message of kept) {
    await options.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: options.deadLetterQueueUrl, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: 0 }));
  }
  return outcome;
}
