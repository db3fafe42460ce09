// The entity helper: each entity of the single table declares its name, its key builder, its index
// keys and a zod schema of its item; everything it reads is parsed with that schema (never cast), and
// everything it writes is built from the schema, with the table name, keys and `entity` stamped here.
// Updates name the attributes they may change (an allow-list), so a request body can never be written
// as is. Conditions are built with the entity's `where` (shared/data/expressions.ts); batches are in
// shared/data/batches.ts, transactions of named operations in shared/data/transactions.ts.
// Why not ElectroDB or dynamodb-toolbox: docs/dependencies.md.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type * as z from '../schemas/zod.ts';
import { batchGet, type WriteRequest } from './batches.ts';
import { send, tableName } from './client.ts';
import { conditionsOf, Placeholders, type Condition, type ConditionBuilder } from './expressions.ts';
import { INDEXES, type IndexName } from './table-definition.ts';
import type { TransactItem, TransactOperation } from './transactions.ts';

export interface PrimaryKey {
  pk: string;
  sk: string;
}

/** Index key attributes an item carries (sparse: an index it is not in is simply absent). */
export type IndexKeys = Partial<Record<`${IndexName}pk` | `${IndexName}sk`, string>>;

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

const keyId = (key: PrimaryKey): string => `${key.pk}\u0000${key.sk}`;

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
  condition?: Condition | undefined;
}

export interface QueryOptions {
  index?: IndexName;
  /** Partition key value of the table or of the index. */
  partition: string;
  /** Sort key condition: a prefix, or bounds (inclusive). */
  sortKey?: { beginsWith: string } | { between: [string, string] } | { lessThan: string } | { greaterThan: string };
  /** Applied after the key condition; with a `limit`, the query reads on until that many items match or the partition ends. */
  filter?: Condition | undefined;
  limit?: number;
  startKey?: Record<string, unknown>;
  /** Newest (highest sort key) first when false; default true. */
  ascending?: boolean;
  consistent?: boolean;
}

export interface EntityDefinition<S extends z.ZodMiniObject, P> {
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

/** A write's ConditionExpression and what DynamoDB returns when it fails (nothing without a condition). */
function conditionOf(placeholders: Placeholders, condition: Condition | undefined) {
  const expression = placeholders.condition(condition);
  return expression ? { ConditionExpression: expression, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {};
}

export class Entity<S extends z.ZodMiniObject, P> {
  readonly name: string;
  readonly schema: S;
  /** Conditions on this entity's attributes (and the primary key's), names and values type-checked. */
  readonly where: ConditionBuilder<z.output<S>> = conditionsOf<z.output<S>>();
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
  async put(record: z.input<S>, parts: P, options: { condition?: Condition | undefined } = {}): Promise<z.output<S>> {
    const placeholders = new Placeholders();
    const item = this.toItem(record, parts);
    await this.conditional(() =>
      send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ...conditionOf(placeholders, options.condition),
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
  async delete(parts: P, options: { condition?: Condition | undefined } = {}): Promise<void> {
    const placeholders = new Placeholders();
    await this.conditional(() =>
      send(
        new DeleteCommand({
          TableName: tableName(),
          Key: this.key(parts),
          ...conditionOf(placeholders, options.condition),
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
    const { and, eq, beginsWith, between, lt, gt } = conditionsOf<Record<string, string>>();
    const sortKey = options.sortKey;
    const sortKeyCondition = !sortKey
      ? undefined
      : 'beginsWith' in sortKey
        ? beginsWith(keys.sortKey, sortKey.beginsWith)
        : 'between' in sortKey
          ? between(keys.sortKey, ...sortKey.between)
          : 'lessThan' in sortKey
            ? lt(keys.sortKey, sortKey.lessThan)
            : gt(keys.sortKey, sortKey.greaterThan);
    const keyCondition = placeholders.condition(and(eq(keys.partitionKey, options.partition), sortKeyCondition)) as string;
    const filter = placeholders.condition(options.filter);
    const result = await send(
      new QueryCommand({
        TableName: tableName(),
        ...(options.index ? { IndexName: INDEXES[options.index].indexName } : {}),
        KeyConditionExpression: keyCondition,
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
   * Reads many items by key (BatchGetItem: shared/data/batches.ts). The result maps keyId(parts) to
   * the item; missing items are absent.
   */
  async batchGet(partsList: readonly P[], options: { consistent?: boolean } = {}): Promise<Map<string, z.output<S>>> {
    const found = new Map<string, z.output<S>>();
    const unique = new Map(partsList.map((parts) => { const key = this.key(parts); return [keyId(key), key]; }));
    await batchGet([...unique.values()] as unknown as Record<string, unknown>[], options, (raw) => found.set(keyId(raw as unknown as PrimaryKey), this.parse(raw)));
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

  putOperation(name: string, record: z.input<S>, parts: P, condition?: Condition): TransactOperation {
    const placeholders = new Placeholders();
    return this.operation(name, {
      Put: {
        TableName: tableName(),
        Item: this.toItem(record, parts),
        ...conditionOf(placeholders, condition),
        ...placeholders.attributes(),
      },
    });
  }

  updateOperation(name: string, parts: P, changes: Changes<z.output<S>>, options: UpdateOptions<z.output<S>>): TransactOperation {
    const input = this.updateInput(parts, changes, options);
    return this.operation(name, { Update: { ...input, UpdateExpression: input.UpdateExpression, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } });
  }

  deleteOperation(name: string, parts: P, condition?: Condition): TransactOperation {
    const placeholders = new Placeholders();
    return this.operation(name, {
      Delete: {
        TableName: tableName(),
        Key: this.key(parts),
        ...conditionOf(placeholders, condition),
        ...placeholders.attributes(),
      },
    });
  }

  /** A condition on the item that the transaction checks without writing it (refused like a write). */
  conditionCheckOperation(name: string, parts: P, condition: Condition): TransactOperation {
    const placeholders = new Placeholders();
    return this.operation(name, {
      ConditionCheck: {
        TableName: tableName(),
        Key: this.key(parts),
        ConditionExpression: placeholders.condition(condition) as string,
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
    const shape = this.schema.shape as Record<string, z.ZodMiniType>;
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
    return {
      TableName: tableName(),
      Key: this.key(parts),
      UpdateExpression: clauses.join(' '),
      ...conditionOf(placeholders, options.condition),
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

export function defineEntity<S extends z.ZodMiniObject, P>(definition: EntityDefinition<S, P>): Entity<S, P> {
  return new Entity(definition);
}
