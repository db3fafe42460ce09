// Approval expiry on a runtime of its own, with ORDER_APPROVAL_SECONDS=6 (time for the requests below on a
// loaded machine) and a sweep every second: an order awaiting approval that nobody answers is declined
// with reason approval_expired by the scheduled worker — once, with one order.declined to the buyer —
// its stock and its key's spend released; approving it after its window is refused.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, expect, it, vi } from 'vitest';
import { listeningUrl, spawnLocalCommand } from '../../lib/local/local-command.ts';
import { runtimeFilePath, type RuntimeFile } from '../../lib/local/runtime.ts';
import { expectError } from '../support/assertions.ts';
import { registerAgent, TestClient } from '../support/http-client.ts';
import { availableQuantity, listProduct, negotiate, orderAction } from '../support/trade.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'order-approval-expiry-'));
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

it('declines an unanswered order when its approval window closes, once, releasing its stock and spend', { timeout: 120_000 }, async () => {
  const child = spawnLocalCommand({ DATA_DIR: dataDir, PORT: '0', ORDER_APPROVAL_SECONDS: '6', LOCAL_SCHEDULE_SECONDS: '1', LOG_LEVEL: 'SILENT' });
  children.push(child);
  const client = new TestClient(await listeningUrl(child));
  const seller = await registerAgent(client, { role: 'seller' });
  const buyer = await registerAgent(client, { role: 'buyer' });
  const listing = await listProduct(client, { price: { amount: 10000, currency: 'EUR' }, availableQuantity: 50, minOrderQuantity: 1, autoAcceptUnitPrice: { amount: 10000, currency: 'EUR' } }, seller);
  const key = await client.post('/v1/agents/me/keys', { name: 'Reorder bot', scopes: ['negotiations:write', 'orders:write'], limits: { spendPerDay: { amount: 50000, currency: 'EUR' }, approvalAbove: { amount: 20000, currency: 'EUR' } } }, { apiKey: buyer.apiKey });
  expect(key.status, key.text).toBe(201);
  const program = key.json.data.apiKey as string;

  const session = await negotiate(client, program, { offerId: listing.offerId, quantity: 5 });
  expect(session.json.data.status).toBe('accepted');
  const placed = await client.post('/v1/create-order', { sessionId: session.json.data.sessionId }, { apiKey: program });
  expect(placed.status, placed.text).toBe(201);
  const { orderId, approval } = placed.json.data;
  expect(Date.parse(approval.expiresAt) - Date.parse(placed.json.data.createdAt)).toBe(6000);
  expect(await availableQuantity(client, buyer.apiKey, listing.productId)).toBe(45);

  // Past its window (same machine, same clock), the sweep declines it.
  await new Promise((wait) => setTimeout(wait, Math.max(0, Date.parse(approval.expiresAt) - Date.now())));
  expectError(await orderAction(client, buyer.apiKey, orderId, 'approve'), 409, 'conflict');
  const declined = await vi.waitFor(async () => {
    const read = await client.get(`/v1/orders/${orderId}`, { apiKey: buyer.apiKey });
    if (read.json.data.status !== 'declined') throw new Error(`still ${read.json.data.status}`);
    return read.json.data;
  }, { timeout: 30_000, interval: 250 });
  expect(declined.approval).toMatchObject({ decision: 'declined', reason: 'approval_expired', decidedByKeyId: null });
  expect(await availableQuantity(client, buyer.apiKey, listing.productId)).toBe(50);
  // The whole budget is free again.
  const again = await negotiate(client, program, { offerId: listing.offerId, quantity: 5 });
  expect((await client.post('/v1/create-order', { sessionId: again.json.data.sessionId, dryRun: true }, { apiKey: program })).status).toBe(200);

  // Several sweeps later: one order.declined, to the buyer alone; the audit trail says the marketplace did it.
  await new Promise((wait) => setTimeout(wait, 3_000));
  const events = (await recordedEvents()).filter((event) => event.data.orderId === orderId).sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
  expect(events.map((event) => event.type)).toEqual(['order.approval_required', 'order.declined']);
  expect(events[1]).toMatchObject({ agentIds: [buyer.agentId], data: { reason: 'approval_expired', status: 'declined' } });
  const audit = await client.get(`/v1/orders/${orderId}/audit`, { apiKey: buyer.apiKey });
  expect(audit.json.data.items.map((entry: any) => [entry.action, entry.actor === 'system' ? 'system' : entry.actor.role, entry.toStatus])).toEqual([
    ['create', 'buyer', 'awaiting_approval'],
    ['decline', 'system', 'declined'],
  ]);
  expectError(await client.get(`/v1/orders/${orderId}`, { apiKey: seller.apiKey }), 404, 'not-found');
});
