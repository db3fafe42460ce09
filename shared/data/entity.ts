// The entity helper: each entity of the single table declares its name, its key builder, its index
// keys and a zod schema of its item; everything it reads is parsed with that schema (never cast), and
// everything it writes is built from the schema, with the table name, keys and `entity` stamped here.
// Updates name the attributes they may change (an allow-list), so a request body can never be written
// as is. Transactions are lists of named operations: a refusal says which named item refused.
// Why not ElectroDB or dynamodb-toolbox: docs/dependencies.md.
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type * as z from 'zod';
import { fail } from '../failures.ts';
import { send, tableName } from './client.ts';
import { INDEXES, type IndexName } from './table-definition.ts';

export interface PrimaryKey {
  pk: string;
  sk: string;
}

/** Index key attributes an item carries (sparse: an index it is not in is simply absent). */
export type IndexKeys = Partial<Record<`${IndexName}pk` | `${IndexName}sk`, string>>;

/** A condition or key expression with its own placeholders (`#name`, `:value`). */
export interface Expression {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** A refused conditional write: the item as it was when the condition failed (undefined: it did not exist). */
export class ConditionRefused<T> extends Error {
  readonly current: T | undefined;
  constructor(entity: string, current: T | undefined) {
    super(`Conditional write on ${entity} refused`);
    this.name = 'ConditionRefused';
    this.current = current;
  }
}

/** An item in the table that does not match its entity's schema: a bug or a migration gap, never user input. */
export class CorruptItem extends Error {
  constructor(entity: string, problems: string) {
    super(`Stored ${entity} item does not match its schema: ${problems}`);
    this.name = 'CorruptItem';
  }
}

/** BatchGetItem's and BatchWriteItem's per-call limits. */
const BATCH_GET_LIMIT = 100;
const BATCH_WRITE_LIMIT = 25;
/** Retries of unprocessed items before giving up as `busy` (backoff doubles from 25 ms, capped at 1 s). */
const BATCH_RETRIES = 8;

export interface WriteRequest {
  PutRequest?: { Item: Record<string, unknown> };
  DeleteRequest?: { Key: Record<string, unknown> };
}

const keyId = (key: PrimaryKey): string => `${key.pk}\u0000${key.sk}`;

/** Exponential backoff with full jitter, as AWS advises for unprocessed batch items. */
function backoff(attempt: number): Promise<void> {
  const ceiling = Math.min(1000, 25 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/**
 * Writes many items (BatchWriteItem, 25 per call, up to `parallelism` calls at once), retrying the
 * unprocessed ones with backoff. Not atomic and not conditional: for idempotent upserts only.
 */
export async function batchWrite(requests: readonly WriteRequest[], options: { parallelism?: number } = {}): Promise<void> {
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_LIMIT) chunks.push(requests.slice(i, i + BATCH_WRITE_LIMIT));
  let next = 0;
  const writeChunk = async (chunk: WriteRequest[]) => {
    let pending: WriteRequest[] = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await backoff(attempt);
      if (attempt > BATCH_RETRIES) throw fail.busy('The marketplace is momentarily busy; retry in a second');
      const table = tableName();
      const result = await send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as WriteRequest[];
    }
  };
  const lane = async () => {
    while (next < chunks.length) await writeChunk(chunks[next++] as WriteRequest[]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.parallelism ?? 4, chunks.length)) }, lane));
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One operation of a transaction, named so that a refusal can say which item refused. */
export interface TransactOperation {
  name: string;
  entity: string;
  item: TransactItem;
  /** Parses the old item returned with a refusal. */
  parse: (raw: Record<string, unknown>) => unknown;
}

export interface Changes<T> {
  set?: Partial<T>;
  /** Numbers added atomically (negative to subtract); a missing attribute counts as 0. */
  add?: Partial<Record<keyof T & string, number>>;
  remove?: readonly (keyof T & string)[];
  /** Index keys to write or drop with the change (e.g. leaving the outbox index). */
  setIndexKeys?: IndexKeys;
  removeIndexKeys?: readonly IndexName[];
}

export interface UpdateOptions<T> {
  /** The attributes this update may touch: anything else in `changes` is a programming error. */
  allow: readonly (keyof T & string)[];
  condition?: Expression;
}

export interface QueryOptions {
  index?: IndexName;
  /** Partition key value of the table or of the index. */
  partition: string;
  /** Sort key condition: a prefix, or bounds (inclusive). */
  sortKey?: { beginsWith: string } | { between: [string, string] } | { lessThan: string } | { greaterThan: string };
  /** Applied after the key condition; with a `limit`, the query reads on until that many items match or the partition ends. */
  filter?: Expression;
  limit?: number;
  startKey?: Record<string, unknown>;
  /** Newest (highest sort key) first when false; default true. */
  ascending?: boolean;
  consistent?: boolean;
}

export interface EntityDefinition<S extends z.ZodObject, P> {
  /** Stamped on every item as `entity`: for people reading the table and for stream consumers. */
  name: string;
  schema: S;
  key: (parts: P) => PrimaryKey;
  /** The index keys of an item (only the indexes it belongs to). */
  indexKeys?: (item: z.output<S>) => IndexKeys;
}

const KEY_ATTRIBUTES = new Set(['pk', 'sk', 'entity', ...Object.values(INDEXES).flatMap((index) => [index.partitionKey, index.sortKey])]);

function withoutKeys(raw: Record<string, unknown>): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) if (!KEY_ATTRIBUTES.has(name)) attributes[name] = value;
  return attributes;
}

/** Builds ExpressionAttributeNames/Values from generated placeholders plus those of the given expressions. */
class Placeholders {
  names: Record<string, string> = {};
  values: Record<string, unknown> = {};
  private count = 0;

  name(attribute: string): string {
    const placeholder = `#a${this.count++}`;
    this.names[placeholder] = attribute;
    return placeholder;
  }

  value(value: unknown): string {
    const placeholder = `:v${this.count++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  merge(expression: Expression | undefined): string | undefined {
    if (!expression) return undefined;
    Object.assign(this.names, expression.names);
    Object.assign(this.values, expression.values);
    return expression.expression;
  }

  attributes() {
    return {
      ...(Object.keys(this.names).length > 0 ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.values).length > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

export class Entity<S extends z.ZodObject, P> {
  readonly name: string;
  readonly schema: S;
  private readonly definition: EntityDefinition<S, P>;

  constructor(definition: EntityDefinition<S, P>) {
    this.definition = definition;
    this.name = definition.name;
    this.schema = definition.schema;
  }

  key(parts: P): PrimaryKey {
    return this.definition.key(parts);
  }

  /** The stored item's attributes, parsed; throws CorruptItem when the item does not match the schema. */
  parse(raw: Record<string, unknown>): z.output<S> {
    const parsed = this.schema.safeParse(withoutKeys(raw));
    if (!parsed.success) {
      throw new CorruptItem(this.name, parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
    }
    return parsed.data;
  }

  /** The full item to write: the record parsed with the schema (unknown attributes dropped), plus keys and `entity`. */
  toItem(record: z.input<S>, parts: P): Record<string, unknown> {
    const attributes = this.schema.parse(record);
    return { ...this.key(parts), ...this.definition.indexKeys?.(attributes), entity: this.name, ...attributes };
  }

  async get(parts: P, options: { consistent?: boolean } = {}): Promise<z.output<S> | undefined> {
    const result = await send(new GetCommand({ TableName: tableName(), Key: this.key(parts), ConsistentRead: options.consistent }));
    return result.Item ? this.parse(result.Item) : undefined;
  }

  /** Writes the item; with a condition, throws ConditionRefused (with the current item) when it fails. */
  async put(record: z.input<S>, parts: P, options: { condition?: Expression } = {}): Promise<z.output<S>> {
    const placeholders = new Placeholders();
    const condition = placeholders.merge(options.condition);
    const item = this.toItem(record, parts);
    await this.conditional(() =>
      send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ...(condition ? { ConditionExpression: condition, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } : {}),
          ...placeholders.attributes(),
        }),
      ),
    );
    return this.parse(item);
  }

  /** Applies allowed changes and returns the whole item after them; throws ConditionRefused on a failed condition. */
  async update(parts: P, changes: Changes<z.output<S>>, options: UpdateOptions<z.output<S>>): Promise<z.output<S>> {
    const result = await this.conditional(() =>
      send(new UpdateCommand({ ...this.updateInput(parts, changes, options), ReturnValues: 'ALL_NEW' })),
    );
    return this.parse(result.Attributes ?? {});
  }

  /** Deletes the item; throws ConditionRefused on a failed condition. */
  async delete(parts: P, options: { condition?: Expression } = {}): Promise<void> {
    const placeholders = new Placeholders();
    const condition = placeholders.merge(options.condition);
    await this.conditional(() =>
      send(
        new DeleteCommand({
          TableName: tableName(),
          Key: this.key(parts),
          ...(condition ? { ConditionExpression: condition, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } : {}),
          ...placeholders.attributes(),
        }),
      ),
    );
  }

  async query(options: QueryOptions): Promise<{ items: z.output<S>[]; lastKey: Record<string, unknown> | undefined }> {
    // DynamoDB applies Limit before the filter, so a filtered page can come back short. Asking each
    // read for no more than is still missing keeps lastKey exact: every item up to it was returned
    // or filtered out.
    const items: z.output<S>[] = [];
    let startKey = options.startKey;
    do {
      const page = await this.queryRaw({ ...options, startKey, ...(options.limit === undefined ? {} : { limit: options.limit - items.length }) });
      items.push(...page.items.map((item) => this.parse(item)));
      startKey = page.lastKey;
    } while (options.filter && options.limit !== undefined && startKey && items.length < options.limit);
    return { items, lastKey: startKey };
  }

  /**
   * The raw items of a query, keys and `entity` included: for a partition that several entities
   * share, whose items the caller parses with the entity each one names.
   */
  async queryRaw(options: QueryOptions): Promise<{ items: Record<string, unknown>[]; lastKey: Record<string, unknown> | undefined }> {
    const placeholders = new Placeholders();
    const keys = options.index ? INDEXES[options.index] : { partitionKey: 'pk', sortKey: 'sk' };
    const conditions = [`${placeholders.name(keys.partitionKey)} = ${placeholders.value(options.partition)}`];
    const sortKey = options.sortKey;
    if (sortKey) {
      const attribute = placeholders.name(keys.sortKey);
      if ('beginsWith' in sortKey) conditions.push(`begins_with(${attribute}, ${placeholders.value(sortKey.beginsWith)})`);
      else if ('between' in sortKey) {
        conditions.push(`${attribute} BETWEEN ${placeholders.value(sortKey.between[0])} AND ${placeholders.value(sortKey.between[1])}`);
      } else if ('lessThan' in sortKey) conditions.push(`${attribute} < ${placeholders.value(sortKey.lessThan)}`);
      else conditions.push(`${attribute} > ${placeholders.value(sortKey.greaterThan)}`);
    }
    const filter = placeholders.merge(options.filter);
    const result = await send(
      new QueryCommand({
        TableName: tableName(),
        ...(options.index ? { IndexName: INDEXES[options.index].indexName } : {}),
        KeyConditionExpression: conditions.join(' AND '),
        ...(filter ? { FilterExpression: filter } : {}),
        ...placeholders.attributes(),
        ScanIndexForward: options.ascending ?? true,
        Limit: options.limit,
        ExclusiveStartKey: options.startKey,
        ConsistentRead: options.consistent,
      }),
    );
    return { items: result.Items ?? [], lastKey: result.LastEvaluatedKey };
  }

  /**
   * Reads many items by key (BatchGetItem, 100 keys per call, in parallel), retrying unprocessed keys
   * with backoff. The result maps keyId(parts) to the item; missing items are absent.
   */
  async batchGet(partsList: readonly P[], options: { consistent?: boolean } = {}): Promise<Map<string, z.output<S>>> {
    const found = new Map<string, z.output<S>>();
    const chunks: PrimaryKey[][] = [];
    const unique = new Map(partsList.map((parts) => { const key = this.key(parts); return [keyId(key), key]; }));
    const keys = [...unique.values()];
    for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) chunks.push(keys.slice(i, i + BATCH_GET_LIMIT));
    await Promise.all(
      chunks.map(async (chunk) => {
        let pending: Record<string, unknown>[] = chunk.map((key) => ({ ...key }));
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt > 0) await backoff(attempt);
          if (attempt > BATCH_RETRIES) throw fail.busy('The marketplace is momentarily busy; retry in a second');
          const table = tableName();
          const result = await send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent } } }));
          for (const raw of result.Responses?.[table] ?? []) found.set(keyId(raw as unknown as PrimaryKey), this.parse(raw));
          pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
        }
      }),
    );
    return found;
  }

  /** The id batchGet() results are keyed by. */
  keyId(parts: P): string {
    return keyId(this.key(parts));
  }

  /** A put for batchWrite(): the item built as put() builds it (no condition: BatchWriteItem has none). */
  putRequest(record: z.input<S>, parts: P): WriteRequest {
    return { PutRequest: { Item: this.toItem(record, parts) } };
  }

  // Operations for transactWrite().

  putOperation(name: string, record: z.input<S>, parts: P, condition?: Expression): TransactOperation {
    const placeholders = new Placeholders();
    const expression = placeholders.merge(condition);
    return this.operation(name, {
      Put: {
        TableName: tableName(),
        Item: this.toItem(record, parts),
        ...(expression ? { ConditionExpression: expression, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } : {}),
        ...placeholders.attributes(),
      },
    });
  }

  updateOperation(name: string, parts: P, changes: Changes<z.output<S>>, options: UpdateOptions<z.output<S>>): TransactOperation {
    const input = this.updateInput(parts, changes, options);
    return this.operation(name, { Update: { ...input, UpdateExpression: input.UpdateExpression, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } });
  }

  deleteOperation(name: string, parts: P, condition?: Expression): TransactOperation {
    const placeholders = new Placeholders();
    const expression = placeholders.merge(condition);
    return this.operation(name, {
      Delete: {
        TableName: tableName(),
        Key: this.key(parts),
        ...(expression ? { ConditionExpression: expression, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } : {}),
        ...placeholders.attributes(),
      },
    });
  }

  checkOperation(name: string, parts: P, condition: Expression): TransactOperation {
    const placeholders = new Placeholders();
    const expression = placeholders.merge(condition) as string;
    return this.operation(name, {
      ConditionCheck: {
        TableName: tableName(),
        Key: this.key(parts),
        ConditionExpression: expression,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        ...placeholders.attributes(),
      },
    });
  }

  private operation(name: string, item: TransactItem): TransactOperation {
    return { name, entity: this.name, item, parse: (raw) => this.parse(raw) };
  }

  private updateInput(parts: P, changes: Changes<z.output<S>>, options: UpdateOptions<z.output<S>>) {
    const allowed = new Set<string>(options.allow);
    const placeholders = new Placeholders();
    const sets: string[] = [];
    const adds: string[] = [];
    const removes: string[] = [];
    const shape = this.schema.shape as Record<string, z.ZodType>;
    const check = (attribute: string) => {
      if (!allowed.has(attribute)) throw new Error(`Update of ${this.name}.${attribute} is not in the allow-list`);
      if (!(attribute in shape)) throw new Error(`${this.name} has no attribute ${attribute}`);
    };
    if (!changes.set && !changes.add && !changes.remove && !changes.setIndexKeys && !changes.removeIndexKeys) {
      throw new Error(`Update of ${this.name} changes nothing`);
    }
    for (const [attribute, value] of Object.entries(changes.set ?? {})) {
      if (value === undefined) continue;
      check(attribute);
      sets.push(`${placeholders.name(attribute)} = ${placeholders.value(shape[attribute]?.parse(value))}`);
    }
    for (const [attribute, amount] of Object.entries(changes.add ?? {})) {
      if (amount === undefined) continue;
      check(attribute);
      adds.push(`${placeholders.name(attribute)} ${placeholders.value(amount)}`);
    }
    for (const attribute of changes.remove ?? []) {
      check(attribute);
      removes.push(placeholders.name(attribute));
    }
    for (const [attribute, value] of Object.entries(changes.setIndexKeys ?? {})) {
      sets.push(`${placeholders.name(attribute)} = ${placeholders.value(value)}`);
    }
    for (const index of changes.removeIndexKeys ?? []) {
      removes.push(placeholders.name(INDEXES[index].partitionKey), placeholders.name(INDEXES[index].sortKey));
    }
    // Stamped on every write: an update may create the item (counters do).
    sets.push(`${placeholders.name('entity')} = ${placeholders.value(this.name)}`);
    const clauses = [
      sets.length > 0 ? `SET ${sets.join(', ')}` : '',
      adds.length > 0 ? `ADD ${adds.join(', ')}` : '',
      removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
    ].filter(Boolean);
    const condition = placeholders.merge(options.condition);
    return {
      TableName: tableName(),
      Key: this.key(parts),
      UpdateExpression: clauses.join(' '),
      ...(condition ? { ConditionExpression: condition, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
      ...placeholders.attributes(),
    };
  }

  private async conditional<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        throw new ConditionRefused(this.name, error.Item ? this.parse(unmarshall(error.Item)) : undefined);
      }
      throw error;
    }
  }
}

export function defineEntity<S extends z.ZodObject, P>(definition: EntityDefinition<S, P>): Entity<S, P> {
  return new Entity(definition);
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
