// A feed survives a `kill -9` of `npm start` mid-processing: after a restart on the same data folder
// the recovery sweep takes the expired lease over and resumes from the last checkpoint, and the
// counts and products come out exactly once each.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, expect, it, vi } from 'vitest';
import { dynamoDbLocalPidsFor } from '../../lib/local/dynamodb-local.ts';
import { listeningUrl, spawnLocalCommand } from '../../lib/local/local-command.ts';
import { runtimeFilePath, type RuntimeFile } from '../../lib/local/runtime.ts';
import { QUEUED_GRACE_MS } from '../../shared/data/feeds.ts';
import { generatedCsv, waitForFeedProgress, type FeedProgressView } from '../support/catalog.ts';

const ROWS = 4_000;
const LEASE_SECONDS = 30;
const dataDir = mkdtempSync(join(tmpdir(), 'feed-resume-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` on the test's data folder, with a short lease and a fast recovery sweep (a lease that lapses before a run's first checkpoint is taken over within the same attempt). */
function startLocal(): { child: ChildProcess; baseUrl: Promise<string> } {
  const child = spawnLocalCommand({ DATA_DIR: dataDir, PORT: '0', FEED_LEASE_SECONDS: String(LEASE_SECONDS), LOCAL_SCHEDULE_SECONDS: '1', LOG_LEVEL: 'SILENT' });
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

/**
 * Reads the feed until `done` says so, polling within the free plan's 60 requests a minute. It fails
 * when the feed makes no progress for as long as processing promises to take at most (with this
 * runtime's 30 s lease and 1 s sweep): never because a loaded machine is slow.
 */
function pollFeed(baseUrl: string, apiKey: string, feedId: string, done: (feed: FeedProgressView) => boolean) {
  const read = async () => {
    const { status, json } = await call(baseUrl, apiKey, 'GET', `/v1/seller/feeds/${feedId}`);
    expect(status).toBe(200);
    return json.data as FeedProgressView;
  };
  return waitForFeedProgress(read, done, { stallMs: 2 * (LEASE_SECONDS * 1000 + QUEUED_GRACE_MS + 1_000), intervalMs: 1_100 });
}

// Two runtime starts (a JVM each) and a stall window per checkpoint on a loaded machine: the ceiling
// is generous, as failing a stuck feed is pollFeed's job.
it('resumes a feed from its checkpoint after kill -9 and counts every row exactly once', { timeout: 15 * 60_000 }, async () => {
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
  const partial = await pollFeed(firstUrl, apiKey, feedId, (feed) => feed.status === 'processing' && feed.rowsSucceeded > 0);
  expect(partial.rowsSucceeded).toBeLessThan(ROWS);
  const exited = new Promise((resolveExit) => first.child.once('exit', resolveExit));
  first.child.kill('SIGKILL');
  await exited;
  // The watchdog stops DynamoDB Local when its owner dies (it looks twice a second, and kills after
  // 10 s at most); the restart clears anything left, so this wait is a courtesy, not a check.
  await vi.waitFor(() => expect(dynamoDbLocalPidsFor(dataDir)).toEqual([]), { timeout: 20_000, interval: 200 }).catch(() => undefined);

  const second = startLocal();
  const secondUrl = await second.baseUrl;
  const finished = await pollFeed(secondUrl, apiKey, feedId, (feed) => feed.status === 'completed' || feed.status === 'failed');
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
