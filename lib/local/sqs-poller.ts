// An SQS event source mapping, emulated: long-polls a queue and hands the handler SQSEvent batches.
// As Lambda does with ReportBatchItemFailures: messages listed in `batchItemFailures` stay, the
// rest are deleted; a thrown error (or a malformed response) keeps the whole batch. Kept messages
// reappear after the queue's visibility timeout, and the queue's RedrivePolicy (enforced by fauxqs)
// moves one to the dead-letter queue after maxReceiveCount receives. Each of the `concurrency` lanes
// is a polling loop (lib/local/polling-loop.ts) whose step is one long poll and its batch.
import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
  type MessageAttributeValue,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { LOCAL_REGION, localClientConfig } from './aws.ts';
import { lambdaContext, type LambdaHandler } from './lambda.ts';
import { startPollingLoop } from './polling-loop.ts';

const FUNCTION_TIMEOUT_MS = 60_000;
const ERROR_BACKOFF_MS = 1_000;

export interface SqsPollerOptions {
  /** The fauxqs endpoint. */
  endpoint: string;
  queueUrl: string;
  queueArn: string;
  /** 1–10 (one ReceiveMessage call per batch). */
  batchSize: number;
  /** Batches handled at once (the event source mapping's maximum concurrency); default 1. */
  concurrency?: number;
  /** Long-poll wait, 0–20 s. */
  waitTimeSeconds?: number;
  functionName: string;
  /** May return `{ batchItemFailures }` (SQSBatchResponse). */
  handler: LambdaHandler<SQSEvent>;
  logError?: (message: string, error?: unknown) => void;
}

export interface SqsPoller {
  stop(): Promise<void>;
}

function toLambdaAttributes(attributes: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes {
  const converted: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    converted[name] = {
      dataType: value.DataType ?? 'String',
      stringValue: value.StringValue,
      binaryValue: value.BinaryValue ? Buffer.from(value.BinaryValue).toString('base64') : undefined,
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((item) => Buffer.from(item).toString('base64')),
    };
  }
  return converted;
}

/** A received message as Lambda's SQS event source hands it to the function. */
export function toRecord(message: Message, queueArn: string): SQSRecord {
  const system = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: system.ApproximateReceiveCount ?? '1',
      SentTimestamp: system.SentTimestamp ?? String(Date.now()),
      SenderId: system.SenderId ?? '000000000000',
      ApproximateFirstReceiveTimestamp: system.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(system.MessageGroupId ? { MessageGroupId: system.MessageGroupId } : {}),
      ...(system.MessageDeduplicationId ? { MessageDeduplicationId: system.MessageDeduplicationId } : {}),
      ...(system.SequenceNumber ? { SequenceNumber: system.SequenceNumber } : {}),
    },
    messageAttributes: toLambdaAttributes(message.MessageAttributes),
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: LOCAL_REGION,
  };
}

/**
 * The records to delete after an invocation: all of them on success, none when the handler threw,
 * all but the reported failures otherwise. An unknown or empty itemIdentifier fails the whole batch,
 * as in Lambda.
 */
export function recordsToDelete(records: readonly SQSRecord[], outcome: { result?: unknown; threw: boolean }): SQSRecord[] {
  if (outcome.threw) return [];
  const failures = (outcome.result as Partial<SQSBatchResponse> | null | undefined)?.batchItemFailures;
  if (failures === undefined || failures === null) return [...records];
  if (!Array.isArray(failures)) return [];
  const ids = new Set(records.map((record) => record.messageId));
  const failed = new Set<string>();
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !ids.has(id)) return [];
    failed.add(id);
  }
  return records.filter((record) => !failed.has(record.messageId));
}

/** The next long poll follows at once (the wait is the poll's own), or after a pause when the last failed. */
const nextPollDelay = ({ failed }: { failed: boolean }): number => (failed ? ERROR_BACKOFF_MS : 0);

export function startSqsPoller(options: SqsPollerOptions): SqsPoller {
  const sqs = new SQSClient(localClientConfig(options.endpoint));
  const logError = options.logError ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const abort = new AbortController();

  async function pollOnce(): Promise<void> {
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: options.queueUrl,
        MaxNumberOfMessages: options.batchSize,
        WaitTimeSeconds: options.waitTimeSeconds ?? 20,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return;
    const records = messages.map((message) => toRecord(message, options.queueArn));
    let outcome: { result?: unknown; threw: boolean };
    try {
      outcome = { result: await options.handler({ Records: records }, lambdaContext(options.functionName, FUNCTION_TIMEOUT_MS)), threw: false };
    } catch (error) {
      logError(`[sqs] ${options.functionName} failed; the batch of ${records.length} stays on the queue:`, error);
      outcome = { threw: true };
    }
    const done = recordsToDelete(records, outcome);
    if (done.length === 0) return;
    // Not aborted on stop: a finished batch is always deleted.
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: options.queueUrl,
        Entries: done.map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })),
      }),
    );
  }

  const lanes = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () =>
    startPollingLoop({
      step: pollOnce,
      nextDelay: nextPollDelay,
      onError: (error) => {
        // A poll cut short by stop() is not a failure.
        if (!abort.signal.aborted) logError(`[sqs] polling ${options.queueUrl} failed:`, error);
      },
    }),
  );
  for (const lane of lanes) void lane.runNow();

  return {
    async stop() {
      // The lanes stop planning first; aborting then ends their long polls at once.
      const stopping = Promise.all(lanes.map((lane) => lane.stop()));
      abort.abort();
      await stopping;
      sqs.destroy();
    },
  };
}
