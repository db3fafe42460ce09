// DynamoDB clients at module scope, created once per container and traced (X-Ray subsegments per call,
// shared/tracer.ts). Endpoints come from the standard
// AWS_ENDPOINT_URL_DYNAMODB variable, which the local runtime points at DynamoDB Local.
// Every call of the data layer goes through send(), which turns the store's transient refusals into
// neutral failures: throttling → `busy`, a transaction that collided with another → `conflict` (after
// sending it again twice: a collided write changed nothing).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  type DynamoDBDocumentClientResolvedConfig,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/lib-dynamodb';
import type { Command } from '@smithy/types';
import { backoff } from '../backoff.ts';
import { config } from '../config.ts';
import { fail } from '../failures.ts';
import { traced } from '../tracer.ts';

export const dynamoDb = traced(new DynamoDBClient({}));

export const documentClient = DynamoDBDocumentClient.from(dynamoDb, {
  marshallOptions: { removeUndefinedValues: true },
});

export function tableName(): string {
  return config().TABLE_NAME;
}

const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);
const THROTTLED_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** The store's refusal as a neutral failure, or undefined when the error is something else. */
export function transientFailure(error: unknown) {
  if (!(error instanceof Error)) return undefined;
  if (THROTTLED.has(error.name)) return fail.busy('The marketplace is momentarily busy; retry in a second');
  if (error.name === 'TransactionCanceledException') {
    const codes = ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
    if (codes.some((code) => THROTTLED_REASONS.has(code))) return fail.busy('The marketplace is momentarily busy; retry in a second');
    if (codes.includes('TransactionConflict')) {
      return fail.collision('A concurrent request changed the same record at the same moment; retry the request');
    }
  }
  if (error.name === 'TransactionConflictException') {
    return fail.collision('A concurrent request changed the same record at the same moment; retry the request');
  }
  return undefined;
}

/**
 * Sends of a write that collided with a transaction, before the collision reaches the caller. A
 * collided write changed nothing, so sending it again is safe; DynamoDB releases a transaction's
 * hold on its items a moment after it answers, so a request that follows its own transaction on the
 * same item (register, then subscribe a webhook) can collide with nothing else running.
 */
export const COLLISION_ATTEMPTS = 3;

/** documentClient.send, with throttling and transaction collisions turned into neutral failures. */
export async function send<I extends ServiceInputTypes, O extends ServiceOutputTypes>(
  command: Command<ServiceInputTypes, I, ServiceOutputTypes, O, DynamoDBDocumentClientResolvedConfig>,
): Promise<O> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await documentClient.send(command);
    } catch (error) {
      const failure = transientFailure(error);
      if (failure?.kind === 'conflict' && attempt < COLLISION_ATTEMPTS) {
        await backoff(attempt);
        continue;
      }
      throw failure ?? error;
    }
  }
}
