// What a BatchWriteItem costs on DynamoDB Local by item and by index entry: the same event-sized items
// (an rfq.created to a seller) written with 0 to 4 of the table's index keys, 440 and 220 at a time, 8
// calls in flight (as an RFQ's dispatch writes them), in rounds. Not part of `npm run bench`: the
// measurement behind docs/decisions/rfq-recipients-are-events.md (one item per seller rather than two).
// `node bench/dynamodb-write-cost.ts [rounds]` prints the milliseconds of each case, median of the rounds.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localClientConfig } from '../lib/local/aws.ts';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local.ts';
import { ensureTable } from '../lib/local/provision.ts';
import { forEachConcurrently, chunked } from '../shared/concurrency.ts';
import { percentile, round } from './stats.ts';

const ROUNDS = Number(process.argv[2] ?? 3);
const TABLE = 'bench-write-cost';
const CASES: readonly { items: number; indexes: number }[] = [
  { items: 440, indexes: 0 },
  { items: 440, indexes: 1 },
  { items: 440, indexes: 2 },
  { items: 440, indexes: 3 },
  { items: 220, indexes: 2 },
  { items: 220, indexes: 4 },
];

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-write-cost-'));
const dynamo = await startDynamoDbLocal({ dataDir });
try {
  const raw = new DynamoDBClient(localClientConfig(dynamo.endpoint));
  await ensureTable(raw, TABLE);
  const client = DynamoDBDocumentClient.from(raw);
  let serial = 0;
  const item = (indexes: number): Record<string, unknown> => {
    serial += 1;
    const eventId = `evt_${String(serial).padStart(26, '0')}`;
    const keys: Record<string, string> = {};
    for (let at = 1; at <= indexes; at++) {
      keys[`gsi${at}pk`] = `P${at}#${serial % 500}`;
      keys[`gsi${at}sk`] = eventId;
    }
    return {
      pk: `EVENT#${eventId}`, sk: 'EVENT', entity: 'event', eventId, type: 'rfq.created', agentIds: [`agt_${serial}`], occurredAt: new Date().toISOString(),
      data: { rfqId: 'rfq_bench', sellerId: `agt_${serial}`, title: 'Surgical masks for our clinics', quantity: 100, currency: 'USD', maxUnitPrice: null, closesAt: new Date().toISOString(), invited: false },
      ...keys,
    };
  };
  const timings = new Map<string, number[]>(CASES.map((c) => [`${c.items} items, ${c.indexes} index keys`, []]));
  const loadAtStart = loadavg()[0] ?? 0;
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const { items, indexes } of CASES) {
      const requests = Array.from({ length: items }, () => ({ PutRequest: { Item: item(indexes) } }));
      const started = performance.now();
      await forEachConcurrently(chunked(requests, 25), 8, async (chunk) => {
        await client.send(new BatchWriteCommand({ RequestItems: { [TABLE]: chunk } }));
      });
      // The first round warms the JVM and is not counted.
      if (r > 0) timings.get(`${items} items, ${indexes} index keys`)?.push(performance.now() - started);
    }
  }
  console.log(JSON.stringify({ rounds: ROUNDS, loadAverage1m: { atStart: round(loadAtStart, 2), atEnd: round(loadavg()[0] ?? 0, 2) }, medianMs: Object.fromEntries([...timings].map(([name, values]) => [name, round(percentile(values, 50), 1)])) }, null, 2));
} finally {
  await dynamo.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
