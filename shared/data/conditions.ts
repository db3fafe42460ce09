// Helpers for reading why a conditional write or a transaction was refused.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

export function isConditionFailure(error: unknown): error is ConditionalCheckFailedException {
  return error instanceof ConditionalCheckFailedException;
}

/** The item as it was when the condition failed (requires ReturnValuesOnConditionCheckFailure: ALL_OLD). */
export function oldItemOf(error: ConditionalCheckFailedException): Record<string, unknown> | undefined {
  return error.Item ? unmarshall(error.Item) : undefined;
}

/**
 * For a cancelled transaction: the index of each item whose condition failed, with the old item when
 * the write asked for it. Anything other than a condition failure (throttling, conflict) is rethrown.
 */
export function failedTransactionConditions(error: unknown): Map<number, Record<string, unknown> | undefined> {
  if (!(error instanceof TransactionCanceledException)) throw error;
  const failed = new Map<number, Record<string, unknown> | undefined>();
  const reasons = error.CancellationReasons ?? [];
  for (const [index, reason] of reasons.entries()) {
    if (reason.Code === 'ConditionalCheckFailed') failed.set(index, reason.Item ? unmarshall(reason.Item) : undefined);
    else if (reason.Code && reason.Code !== 'None') throw error;
  }
  if (failed.size === 0) throw error;
  return failed;
}
