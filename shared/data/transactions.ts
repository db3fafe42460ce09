// Transactions as lists of named operations (built by an entity's putOperation, updateOperation …):
// all of them or none, and a refusal says which named item refused, with the item as it was.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { send } from './client.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One operation of a transaction, named so that a refusal can say which item refused. */
export interface TransactOperation {
  name: string;
  entity: string;
  item: TransactItem;
  /** Parses the old item returned with a refusal. */
  parse: (raw: Record<string, unknown>) => unknown;
}

/** A transaction refused by conditions: for each named operation whose condition failed, the item as it was. */
export class TransactionRefused extends Error {
  readonly refused: ReadonlyMap<string, unknown>;
  constructor(refused: Map<string, unknown>) {
    super(`Transaction refused by ${[...refused.keys()].join(', ')}`);
    this.name = 'TransactionRefused';
    this.refused = refused;
  }

  /** Whether the named operation refused. */
  has(name: string): boolean {
    return this.refused.has(name);
  }

  /** The named item as it was when it refused (undefined when it did not exist). */
  current<T>(name: string): T | undefined {
    return this.refused.get(name) as T | undefined;
  }
}

/**
 * All operations or none. Throws TransactionRefused naming the operations whose conditions failed;
 * collisions with other transactions and throttling come out of send() as neutral failures.
 */
export async function transactWrite(operations: readonly TransactOperation[]): Promise<void> {
  const names = new Set(operations.map((operation) => operation.name));
  if (names.size !== operations.length) throw new Error('Transaction operations need distinct names');
  try {
    await send(new TransactWriteCommand({ TransactItems: operations.map((operation) => operation.item) }));
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const refused = new Map<string, unknown>();
    for (const [index, reason] of (error.CancellationReasons ?? []).entries()) {
      if (reason.Code !== 'ConditionalCheckFailed') continue;
      const operation = operations[index] as TransactOperation;
      refused.set(operation.name, reason.Item ? operation.parse(unmarshall(reason.Item)) : undefined);
    }
    if (refused.size === 0) throw error;
    throw new TransactionRefused(refused);
  }
}
