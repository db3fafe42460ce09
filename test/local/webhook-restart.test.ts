// Nothing of webhook delivery is lost when `npm start` is killed with SIGKILL mid-way: deliveries in
// flight to a slow receiver, messages still queued, a retry waiting on its schedule, and events not yet
// fanned out all reach their receivers after a restart on the same data folder.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, onTestFailed, vi } from 'vitest';
import { dynamoDbLocalPidsFor } from '../../lib/local/dynamodb-local.ts';
import { listeningUrl, spawnLocalCommand } from '../../lib/local/local-command.ts';
import { registerAgent, TestClient } from '../support/http-client.ts';
import { Receiver } from '../support/receiver.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'webhook-restart-'));
const children: ChildProcess[] = [];
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await receiver.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function startLocal(): { child: ChildProcess; client: Promise<TestClient> } {
  const child = spawnLocalCommand({ DATA_DIR: dataDir, PORT: '0', LOCAL_SCHEDULE_SECONDS: '1', WEBHOOK_RETRY_DELAYS: '4,4,4,4', LOG_LEVEL: 'ERROR' });
  children.push(child);
  // What the runtime reports (crashes, timeouts, failed requests) is shown when the test fails.
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_000)));
  onTestFailed(() => console.error(`npm start (pid ${child.pid}) reported:\n${output || '(nothing)'}`));
  const url = listeningUrl(child);
  url.catch(() => undefined);
  return { child, client: url.then((baseUrl) => new TestClient(baseUrl)) };
}

const eventIdsAt = (path: string) => new Set(receiver.at(path).map((request) => (JSON.parse(request.body) as { id: string }).id));

// Two starts of npm start, each with a JVM (DynamoDB Local): under load each can take a minute.
it('resumes in-flight and queued deliveries, pending retries and undispatched events after kill -9', { timeout: 360_000 }, async () => {
  const first = startLocal();
  const client = await first.client;
  const seller = await registerAgent(client, { role: 'seller' });
  // A slow receiver (2 s per request) and a flaky one (the first request fails, then a retry in 4 s).
  receiver.on('/slow', { delayMs: 2_000, status: 200 });
  receiver.on('/flaky', { script: [500], then: 200 });
  const slowSubscription = await client.post('/v1/webhooks', { url: receiver.url('/slow'), events: ['*'], secret: 'restart-secret-0123456789' }, { apiKey: seller.apiKey });
  expect(slowSubscription.status, slowSubscription.text).toBe(201);
  const slow = slowSubscription.json.data.id as string;
  const flakySubscription = await client.post('/v1/webhooks', { url: receiver.url('/flaky'), events: ['feed.failed'], secret: 'restart-secret-0123456789' }, { apiKey: seller.apiKey });
  expect(flakySubscription.status, flakySubscription.text).toBe(201);

  // Test events go straight to the queue; feeds produce events through the outbox.
  const tests: string[] = [];
  for (let i = 0; i < 6; i++) tests.push((await client.send('POST', `/v1/webhooks/${slow}/test`, { apiKey: seller.apiKey })).json.data.eventId as string);
  for (let i = 0; i < 3; i++) {
    const upload = await client.send('POST', '/v1/seller/feeds', { apiKey: seller.apiKey, body: 'not,a\nfeed', headers: { 'content-type': 'text/csv' } });
    expect(upload.status, upload.text).toBe(202);
  }
  // Killed while the slow receiver is still answering and the flaky one waits for its retry.
  await receiver.waitFor('/flaky', 1, 30_000);
  await receiver.waitFor('/slow', 1, 30_000);
  const exited = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL');
  await exited;
  expect(eventIdsAt('/slow').size).toBeLessThan(9);
  for (let i = 0; i < 50 && dynamoDbLocalPidsFor(dataDir).length > 0; i++) await new Promise((wait) => setTimeout(wait, 100));

  const second = startLocal();
  const again = await second.client;
  // Every test event and every feed.failed event reaches the slow receiver; the flaky one gets its retries.
  // Overdue deliveries are queued again after 15 s; nine 2 s answers one at a time; a 4 s retry.
  await vi.waitFor(
    () => {
      if (eventIdsAt('/slow').size < 9 || eventIdsAt('/flaky').size < 3 || receiver.at('/flaky').length < 4)
        throw new Error(`slow ${eventIdsAt('/slow').size}/9, flaky ${eventIdsAt('/flaky').size}/3 events (${receiver.at('/flaky').length} requests)`);
    },
    { timeout: 120_000, interval: 250 },
  );
  for (const eventId of tests) expect(eventIdsAt('/slow').has(eventId)).toBe(true);
  const types = receiver.at('/slow').map((request) => (JSON.parse(request.body) as { type: string }).type);
  expect(types.filter((type) => type === 'feed.failed').length).toBeGreaterThanOrEqual(3);
  // The delivery log agrees: nothing pending or failed on the slow subscription in the end.
  await vi.waitFor(
    async () => {
      const page = await again.get(`/v1/webhooks/${slow}/deliveries?limit=100`, { apiKey: seller.apiKey });
      const statuses = (page.json.data.items as { status: string }[]).map((delivery) => delivery.status);
      expect(statuses).toHaveLength(9);
      expect(statuses.filter((status) => status !== 'delivered'), `statuses ${statuses.join(', ')}`).toEqual([]);
    },
    { timeout: 60_000, interval: 3_000 }, // within the free plan's 60 requests a minute
  );
});
