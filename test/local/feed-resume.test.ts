// A feed survives a `kill -9` of `npm start` mid-processing: after a restart on the same data folder
// the recovery sweep takes the expired lease over and resumes from the last checkpoint, and the
// counts and products come out exactly once each.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, expect, it } from 'vitest';
import { dynamoDbLocalPidsFor } from '../../lib/local/dynamodb-local.ts';
import { listeningUrl, spawnLocalCommand } from '../../lib/local/local-command.ts';
import { runtimeFilePath, type RuntimeFile } from '../../lib/local/runtime.ts';
import { generatedCsv } from '../support/catalog.ts';

const ROWS = 4_000;
const dataDir = mkdtempSync(join(tmpdir(), 'feed-resume-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` on the test's data folder, with a short lease (long enough for a first checkpoint on a loaded machine) and a fast recovery sweep. */
function startLocal(): { child: ChildProcess; baseUrl: Promise<string> } {
  const child = spawnLocalCommand({ DATA_DIR: dataDir, PORT: '0', FEED_LEASE_SECONDS: '30', LOCAL_SCHEDULE_SECONDS: '1', LOG_LEVEL: 'SILENT' });
  children.push(child);
  const baseUrl = listeningUrl(child);
  baseUrl.catch(() => undefined); // a kill after start is expected; the awaiting test reports others
  return { child, baseUrl };
}

async function call(baseUrl: string, apiKey: string | undefined, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as { data: Record<string, any> } };
}

/** Polls the feed (within the free plan's 60 requests a minute) until `done` says so. */
async function pollFeed(baseUrl: string, apiKey: string, feedId: string, done: (feed: Record<string, any>) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, json } = await call(baseUrl, apiKey, 'GET', `/v1/seller/feeds/${feedId}`);
    expect(status).toBe(200);
    if (done(json.data)) return json.data;
    if (Date.now() > deadline) throw new Error(`feed still ${json.data.status} (${json.data.rowsSucceeded} rows) after ${timeoutMs} ms`);
    await new Promise((wait) => setTimeout(wait, 1_100));
  }
}

it('resumes a feed from its checkpoint after kill -9 and counts every row exactly once', { timeout: 240_000 }, async () => {
  const first = startLocal();
  const firstUrl = await first.baseUrl;
  const registered = await call(firstUrl, undefined, 'POST', '/v1/agents/register', {
    name: 'Resume seller',
    role: 'seller',
    organization: { legalName: 'Resume GmbH', country: 'DE' },
    contactEmail: 'resume@example.com',
  });
  expect(registered.status).toBe(201);
  const { agentId, apiKey } = registered.json.data as { agentId: string; apiKey: string };

  const created = await call(firstUrl, apiKey, 'POST', '/v1/seller/feeds', { format: 'csv', upload: 'presigned' });
  expect(created.status).toBe(202);
  const { feedId, uploadUrl } = created.json.data as { feedId: string; uploadUrl: string };
  const put = await fetch(uploadUrl, { method: 'PUT', body: generatedCsv(ROWS, 'RESUME') });
  expect(put.status).toBe(200);

  // Killed once a checkpoint is saved, well before the end.
  const partial = await pollFeed(firstUrl, apiKey, feedId, (feed) => feed.status === 'processing' && feed.rowsSucceeded > 0, 120_000);
  expect(partial.rowsSucceeded).toBeLessThan(ROWS);
  const exited = new Promise((resolveExit) => first.child.once('exit', resolveExit));
  first.child.kill('SIGKILL');
  await exited;
  // The watchdog stops DynamoDB Local when its owner dies; the restart clears anything left.
  for (let i = 0; i < 50 && dynamoDbLocalPidsFor(dataDir).length > 0; i++) await new Promise((wait) => setTimeout(wait, 100));

  const second = startLocal();
  const secondUrl = await second.baseUrl;
  const finished = await pollFeed(secondUrl, apiKey, feedId, (feed) => feed.status === 'completed' || feed.status === 'failed', 180_000);
  expect(finished).toMatchObject({ status: 'completed', rowsTotal: ROWS, rowsSucceeded: ROWS, rowsFailed: 0, errors: [], warnings: [], attempts: 1 });

  // Every row became exactly one product (the seller's products index, counted on the child's table).
  const runtime = JSON.parse(readFileSync(runtimeFilePath(dataDir), 'utf8')) as RuntimeFile;
  const dynamodb = new DynamoDBClient({ endpoint: runtime.endpoints.dynamodb, region: runtime.env.AWS_REGION!, credentials: { accessKeyId: runtime.env.AWS_ACCESS_KEY_ID!, secretAccessKey: runtime.env.AWS_SECRET_ACCESS_KEY! } });
  let count = 0;
  let startKey: Record<string, any> | undefined;
  do {
    const page = await dynamodb.send(
      new QueryCommand({
        TableName: runtime.env.TABLE_NAME!,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: `SELLER#${agentId}#PRODUCTS` } },
        Select: 'COUNT',
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  dynamodb.destroy();
  expect(count).toBe(ROWS);

  const stopped = new Promise((resolveExit) => second.child.once('exit', resolveExit));
  second.child.kill('SIGINT');
  await stopped;
});
