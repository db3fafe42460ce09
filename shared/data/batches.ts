// BatchGetItem and BatchWriteItem: requests cut to each call's limit, several calls at once, and the
// items DynamoDB leaves unprocessed (under load) retried with backoff until none is left or the
// retries run out (then the caller is `busy`).
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { chunked, forEachConcurrently } from '../concurrency.ts';
import { send, tableName } from './client.ts';
import { untilProcessed } from './unprocessed.ts';

/** BatchGetItem's and BatchWriteItem's per-call limits. */
const BATCH_GET_LIMIT = 100;
const BATCH_WRITE_LIMIT = 25;
/** BatchGetItem calls of one read in flight at once. */
const BATCH_GET_PARALLELISM = 8;
export interface WriteRequest {
  PutRequest?: { Item: Record<string, unknown> };
  DeleteRequest?: { Key: Record<string, unknown> };
}

/**
 * Writes many items (BatchWriteItem, 25 per call, up to `parallelism` calls at once), retrying the
 * unprocessed ones with backoff. Not atomic and not conditional: for idempotent upserts only.
 */
export async function batchWrite(requests: readonly WriteRequest[], options: { parallelism?: number } = {}): Promise<void> {
  await forEachConcurrently(chunked(requests, BATCH_WRITE_LIMIT), options.parallelism ?? 4, (chunk) =>
    untilProcessed(chunk, async (pending) => {
      const table = tableName();
      const result = await send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      return (result.UnprocessedItems?.[table] ?? []) as WriteRequest[];
    }),
  );
}

/**
 * Reads many items by key (BatchGetItem, 100 keys per call, several calls at once), retrying the
 * unprocessed keys with backoff; `found` receives each raw item as it arrives (missing ones never).
 */
export async function batchGet(keys: readonly Record<string, unknown>[], options: { consistent?: boolean }, found: (raw: Record<string, unknown>) => void): Promise<void> {
  await forEachConcurrently(chunked(keys, BATCH_GET_LIMIT), BATCH_GET_PARALLELISM, (chunk) =>
    untilProcessed(
      chunk.map((key) => ({ ...key })),
      async (pending) => {
        const table = tableName();
        const result = await send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent } } }));
        for (const raw of result.Responses?.[table] ?? []) found(raw);
        return (result.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
      },
    ),
  );
}
