// Negotiation expiry on a runtime of its own, with NEGOTIATION_TTL_SECONDS=6 (time for the moves below on a
// loaded machine) and a sweep every second:
// a session past its time reads as expired everywhere, refuses moves and orders, and its
// negotiation.rejected event (reason `expired`) is recorded exactly once, without anyone reading it.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, expect, it } from 'vitest';
import { listeningUrl, spawnLocalCommand } from '../../lib/local/local-command.ts';
import { runtimeFilePath, type RuntimeFile } from '../../lib/local/runtime.ts';
import { expectError } from '../support/assertions.ts';
import { registerAgent, TestClient } from '../support/http-client.ts';
import { listProduct, move, negotiate } from '../support/trade.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'negotiation-expiry-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every event item of the child's table (a test may scan; the product never does). */
async function recordedEvents(): Promise<Record<string, any>[]> {
  const runtime = JSON.parse(readFileSync(runtimeFilePath(dataDir), 'utf8')) as RuntimeFile;
  const dynamodb = new DynamoDBClient({ endpoint: runtime.endpoints.dynamodb, region: runtime.env.AWS_REGION!, credentials: { accessKeyId: runtime.env.AWS_ACCESS_KEY_ID!, secretAccessKey: runtime.env.AWS_SECRET_ACCESS_KEY! } });
  const items: Record<string, any>[] = [];
  let startKey: Record<string, any> | undefined;
  do {
    const page = await dynamodb.send(new ScanCommand({ TableName: runtime.env.TABLE_NAME!, FilterExpression: 'entity = :event', ExpressionAttributeValues: { ':event': { S: 'event' } }, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }));
    items.push(...(page.Items ?? []).map((item) => unmarshall(item)));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

it('expires an idle session after its TTL: reads, moves, orders and one negotiation.rejected event', { timeout: 120_000 }, async () => {
  const child = spawnLocalCommand({ DATA_DIR: dataDir, PORT: '0', NEGOTIATION_TTL_SECONDS: '6', LOCAL_SCHEDULE_SECONDS: '1', LOG_LEVEL: 'SILENT' });
  children.push(child);
  const client = new TestClient(await listeningUrl(child));
  const seller = await registerAgent(client, { role: 'seller' });
  const buyer = await registerAgent(client, { role: 'buyer' });
  const listing = await listProduct(client, {}, seller);

  const started = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 20, unitPrice: 900 });
  expect(started.status, started.text).toBe(201);
  const session = started.json.data;
  expect(Date.parse(session.expiresAt) - Date.parse(session.updatedAt)).toBe(6000);
  const countered = await move(client, seller.apiKey, session.sessionId, 'counter', { unitPrice: 950 });
  expect(countered.status).toBe(200);
  const kept = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 20, unitPrice: 900 });
  const accepted = await move(client, seller.apiKey, kept.json.data.sessionId, 'accept');
  expect(accepted.status).toBe(200);

  // Past the first session's expiry, as its last move (the counter) set it (same machine, same clock),
  // with a sweep's interval to spare.
  await new Promise((wait) => setTimeout(wait, Math.max(0, Date.parse(countered.json.data.expiresAt) + 2_000 - Date.now())));
  for (const apiKey of [buyer.apiKey, seller.apiKey]) {
    const read = await client.get(`/v1/negotiations/${session.sessionId}`, { apiKey });
    expect(read.json.data).toMatchObject({ status: 'expired', turn: null });
  }
  const late = await move(client, buyer.apiKey, session.sessionId, 'accept');
  expectError(late, 409, 'conflict');
  expect(late.json.details[0]).toEqual({ path: 'status', message: 'The session is expired' });
  expectError(await client.send('POST', '/v1/create-order', { apiKey: buyer.apiKey, body: { sessionId: session.sessionId } }), 409, 'conflict');
  expect((await client.get('/v1/negotiations', { apiKey: buyer.apiKey })).json.data.items).toEqual([]);
  expect((await client.get('/v1/negotiations?status=expired', { apiKey: seller.apiKey })).json.data.items.map((s: any) => s.sessionId)).toEqual([session.sessionId]);
  // An accepted session does not expire.
  expect((await client.get(`/v1/negotiations/${kept.json.data.sessionId}`, { apiKey: buyer.apiKey })).json.data.status).toBe('accepted');

  // Several sweeps later: exactly one expiry event, to both parties, saying why.
  await new Promise((wait) => setTimeout(wait, 3_000));
  const events = (await recordedEvents()).filter((event) => event.data.sessionId === session.sessionId).sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
  expect(events.map((event) => event.type)).toEqual(['negotiation.started', 'negotiation.counter', 'negotiation.rejected']);
  const expiry = events[2]!;
  expect(expiry.data).toMatchObject({ reason: 'expired', status: 'expired', buyerId: buyer.agentId, sellerId: seller.agentId });
  expect(expiry.agentIds.sort()).toEqual([buyer.agentId, seller.agentId].sort());
  expect(JSON.stringify(events)).not.toContain('floorUnitPrice');
});
