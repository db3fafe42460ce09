// The entity helper against DynamoDB Local: what it reads is parsed, what it writes is only what the
// schema allows, updates refuse attributes outside their allow-list, and a refused transaction names
// the items that refused.
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { documentClient, tableName } from '../../shared/data/client.ts';
import { ConditionRefused, CorruptItem, defineEntity } from '../../shared/data/entity.ts';
import { transactWrite, TransactionRefused } from '../../shared/data/transactions.ts';

const Widget = defineEntity({
  name: 'testWidget',
  schema: z.object({ id: z.string(), name: z.string(), count: z.int(), status: z.enum(['on', 'off']).optional() }),
  key: ({ id }: { id: string }) => ({ pk: `TESTWIDGET#${id}`, sk: 'WIDGET' }),
  indexKeys: (widget) => (widget.status === 'on' ? { gsi1pk: 'TESTWIDGET#ON', gsi1sk: widget.id } : {}),
});

const raw = async (id: string) => (await documentClient.send(new GetCommand({ TableName: tableName(), Key: Widget.key({ id }) }))).Item;

describe('entity helper', () => {
  it('stamps keys, index keys and the entity name, and drops attributes the schema does not know', async () => {
    const id = randomUUID();
    await Widget.put({ id, name: 'a', count: 1, status: 'on', apiKey: 'mk_test_should_not_be_stored' } as never, { id });
    expect(await raw(id)).toEqual({ pk: `TESTWIDGET#${id}`, sk: 'WIDGET', gsi1pk: 'TESTWIDGET#ON', gsi1sk: id, entity: 'testWidget', id, name: 'a', count: 1, status: 'on' });
    expect(await Widget.get({ id })).toEqual({ id, name: 'a', count: 1, status: 'on' });
  });

  it('parses what it reads: an item that does not match the schema is an error, not a cast', async () => {
    const id = randomUUID();
    await documentClient.send(new PutCommand({ TableName: tableName(), Item: { ...Widget.key({ id }), id, name: 'x', count: 'many' } }));
    await expect(Widget.get({ id })).rejects.toBeInstanceOf(CorruptItem);
    await expect(Widget.get({ id })).rejects.toThrow(/count/);
  });

  it('updates only attributes on the allow-list, with values of the schema', async () => {
    const id = randomUUID();
    await Widget.put({ id, name: 'a', count: 1 }, { id });
    await expect(Widget.update({ id }, { set: { name: 'b', count: 2 } }, { allow: ['name'] })).rejects.toThrow(/count is not in the allow-list/);
    expect(await Widget.get({ id })).toEqual({ id, name: 'a', count: 1 });
    await expect(Widget.update({ id }, { set: { count: 'two' as never } }, { allow: ['count'] })).rejects.toThrow();
    expect(await Widget.update({ id }, { set: { name: 'b' }, add: { count: 5 } }, { allow: ['name', 'count'] })).toEqual({ id, name: 'b', count: 6 });
    expect((await raw(id))?.entity).toBe('testWidget');
  });

  it('reports a refused condition with the item as it is', async () => {
    const id = randomUUID();
    await Widget.put({ id, name: 'a', count: 1 }, { id });
    const refused = await Widget.put({ id, name: 'b', count: 2 }, { id }, { condition: Widget.where.notExists('pk') }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConditionRefused);
    expect((refused as ConditionRefused<unknown>).current).toEqual({ id, name: 'a', count: 1 });
  });

  it('names the operations that refused a transaction, and writes nothing', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await Widget.put({ id: a, name: 'a', count: 1 }, { id: a });
    const refused = await transactWrite([
      Widget.putOperation('newWidget', { id: b, name: 'b', count: 0 }, { id: b }, Widget.where.notExists('pk')),
      Widget.updateOperation('existing', { id: a }, { add: { count: 1 } }, { allow: ['count'], condition: Widget.where.gt('count', 10) }),
    ]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TransactionRefused);
    const transaction = refused as TransactionRefused;
    expect([...transaction.refused.keys()]).toEqual(['existing']);
    expect(transaction.current('existing')).toEqual({ id: a, name: 'a', count: 1 });
    expect(await raw(b)).toBeUndefined();
  });

  it('queries an index and parses every item', async () => {
    const id = randomUUID();
    await Widget.put({ id, name: 'q', count: 3, status: 'on' }, { id });
    const page = await Widget.query({ index: 'gsi1', partition: 'TESTWIDGET#ON', sortKey: { beginsWith: id } });
    expect(page.items).toEqual([{ id, name: 'q', count: 3, status: 'on' }]);
  });

  it('fills a filtered page up to its limit, and pages on from the last key without skipping a match', async () => {
    const prefix = `F${randomUUID()}`;
    // 12 widgets in the index partition, every third one matching the filter (count = 0).
    for (let n = 0; n < 12; n++) {
      const id = `${prefix}-${String(n).padStart(2, '0')}`;
      await Widget.put({ id, name: 'f', count: n % 3 === 0 ? 0 : 1, status: 'on' }, { id });
    }
    const options = { index: 'gsi1' as const, partition: 'TESTWIDGET#ON', sortKey: { beginsWith: prefix }, filter: Widget.where.eq('count', 0), limit: 2 };
    const first = await Widget.query(options);
    expect(first.items.map((widget) => widget.id)).toEqual([`${prefix}-00`, `${prefix}-03`]);
    const second = await Widget.query({ ...options, startKey: first.lastKey });
    expect(second.items.map((widget) => widget.id)).toEqual([`${prefix}-06`, `${prefix}-09`]);
  });
});
