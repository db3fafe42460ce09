// The messages Lambda puts in a worker's dead-letter queue, as AWS documents them: for a stream event
// source, a failure record naming the shard and the sequence range of the batch it gave up on (not the
// records themselves); for an asynchronous invocation (an S3 notification), the original event with
// the error. The local runtime writes the same shapes (lib/local/runtime.ts), so the replay command
// (lib/dead-letters.ts) reads one format everywhere.
import { randomUUID } from 'node:crypto';
import * as z from 'zod';

export const StreamFailureRecord = z.object({
  requestContext: z.object({ requestId: z.string(), functionArn: z.string(), condition: z.string(), approximateInvokeCount: z.number() }),
  version: z.string(),
  timestamp: z.string(),
  DDBStreamBatchInfo: z.object({
    shardId: z.string(),
    startSequenceNumber: z.string(),
    endSequenceNumber: z.string(),
    approximateArrivalOfFirstRecord: z.string().optional(),
    approximateArrivalOfLastRecord: z.string().optional(),
    batchSize: z.number(),
    streamArn: z.string(),
  }),
});
export type StreamFailureRecord = z.infer<typeof StreamFailureRecord>;

export const AsyncFailureRecord = z.object({
  version: z.string(),
  timestamp: z.string(),
  requestContext: z.object({ requestId: z.string(), functionArn: z.string(), condition: z.string(), approximateInvokeCount: z.number() }),
  requestPayload: z.unknown(),
  responsePayload: z.unknown().optional(),
});
export type AsyncFailureRecord = z.infer<typeof AsyncFailureRecord>;

function errorPayload(error: unknown) {
  return { errorType: error instanceof Error ? error.name : 'Error', errorMessage: error instanceof Error ? error.message : String(error) };
}

/** What Lambda sends when a stream record (or batch) failed every retry. */
export function streamFailureRecord(
  functionArn: string,
  batch: { shardId: string; streamArn: string; first: { sequenceNumber: string; arrival?: Date }; last: { sequenceNumber: string; arrival?: Date }; size: number },
  attempts: number,
  now = new Date(),
): StreamFailureRecord {
  return {
    requestContext: { requestId: randomUUID(), functionArn, condition: 'RetryAttemptsExhausted', approximateInvokeCount: attempts },
    version: '1.0',
    timestamp: now.toISOString(),
    DDBStreamBatchInfo: {
      shardId: batch.shardId,
      startSequenceNumber: batch.first.sequenceNumber,
      endSequenceNumber: batch.last.sequenceNumber,
      ...(batch.first.arrival ? { approximateArrivalOfFirstRecord: batch.first.arrival.toISOString() } : {}),
      ...(batch.last.arrival ? { approximateArrivalOfLastRecord: batch.last.arrival.toISOString() } : {}),
      batchSize: batch.size,
      streamArn: batch.streamArn,
    },
  };
}

/** What Lambda sends when an asynchronous invocation failed its retries. */
export function asyncFailureRecord(functionArn: string, event: unknown, error: unknown, attempts: number, now = new Date()): AsyncFailureRecord & { responseContext: object } {
  return {
    version: '1.0',
    timestamp: now.toISOString(),
    requestContext: { requestId: randomUUID(), functionArn, condition: 'RetriesExhausted', approximateInvokeCount: attempts },
    requestPayload: event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: errorPayload(error),
  };
}
