// A worker's dead letters and the search log's rebuild, end to end on a runtime of their own (`npm
// start` in a child process): a stream record the search index worker fails on every retry lands in
// the worker's dead-letter queue (its feed stays processing: its products are not searchable); once the
// cause is fixed, `replay-dead-letters` applies it and the feed completes; and
// `rebuild-search-log` brings back a search index whose log was lost.
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_REGION, localClientConfig, localQueueUrl } from '../../lib/local/aws.ts';
import { listeningUrl, LOCAL_COMMAND, spawnLocalCommand } from '../../lib/local/local-command.ts';
import { runtimeFilePath, type RuntimeFile } from '../../lib/local/runtime.ts';
import { LOCAL, workerFailureQueueName } from '../../shared/resources.ts';
import { registerAgent, TestClient } from '../support/http-client.ts';
import { uploadCsv, waitForFeed } from '../support/catalog.ts';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'dead-letters-'));
let child: ChildProcess;
let runtime: RuntimeFile;
let client: TestClient;
let table: DynamoDBDocumentClient;
let sqs: SQSClient;
let seller: { agentId: string; apiKey: string };

beforeAll(async () => {
  child = spawnLocalCommand({ DATA_DIR: dataDir, PORT: '0', LOCAL_SCHEDULE_SECONDS: '1', LOG_LEVEL: 'SILENT' });
  child.stderr!.resume();
  client = new TestClient(await listeningUrl(child));
  runtime = JSON.parse(readFileSync(runtimeFilePath(dataDir), 'utf8')) as RuntimeFile;
  table = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: runtime.endpoints.dynamodb, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }));
  sqs = new SQSClient(localClientConfig(runtime.endpoints.fauxqs));
  seller = await registerAgent(client, { role: 'seller' });
  // Polling feeds and search would exhaust the free plan's minute.
  expect((await admin('set-plan', seller.agentId, 'enterprise')).code).toBe(0);
}, 180_000);

afterAll(async () => {
  table?.destroy();
  sqs?.destroy();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    child.kill('SIGINT');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(LOCAL_COMMAND, '../admin.ts'), ...args], { env: { ...process.env, DATA_DIR: dataDir } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function searchTitles(query: string): Promise<string[]> {
  const response = await client.post('/v1/search', { query, limit: 50 }, { apiKey: seller.apiKey });
  if (response.status !== 200) return [`(search answered ${response.status})`];
  return (response.json.data.items as { product: { title: string } }[]).map((item) => item.product.title).sort();
}

/** Polls `read` until `done` holds (a readiness signal); the bound only keeps a broken run from hanging. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
}

/** Uploads a CSV feed; its id. */
async function upload(csvRows: string[]): Promise<string> {
  const uploaded = await uploadCsv(client, seller.apiKey, `sku,title,price,currency,available_quantity,category\n${csvRows.join('\n')}\n`);
  expect(uploaded.status, uploaded.text).toBe(202);
  return uploaded.json.data.feedId as string;
}

async function feed(csvRows: string[]): Promise<void> {
  expect((await waitForFeed(client, seller.apiKey, await upload(csvRows))).status).toBe('completed');
}

const feedStatus = async (feedId: string) => (await client.get(`/v1/seller/feeds/${feedId}`, { apiKey: seller.apiKey })).json.data.status as string;

const failureQueueUrl = () => localQueueUrl(runtime.endpoints.fauxqs, workerFailureQueueName(LOCAL.stage, 'searchIndexChanges'));

async function deadLetters(): Promise<number> {
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: failureQueueUrl(), AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
  );
  return Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
}

const headKey = { pk: 'SEARCH_INDEX', sk: 'HEAD' };

describe('the search index worker’s dead letters', () => {
  it('a change the worker fails on every retry lands in its dead-letter queue; once the cause is fixed, replay applies it', { timeout: 300_000 }, async () => {
    await feed(['LAMP-1,Brass desk lamp,12.50,EUR,10,home/lighting']);
    expect(await until(() => searchTitles('brass lamp'), (titles) => titles.length === 1, 30_000)).toEqual(['Brass desk lamp']);

    // The cause: the search log's head is damaged, so appending to the log fails for every record.
    const head = (await table.send(new GetCommand({ TableName: runtime.env.TABLE_NAME, Key: headKey, ConsistentRead: true }))).Item!;
    await table.send(new PutCommand({ TableName: runtime.env.TABLE_NAME, Item: { ...head, seq: 'damaged' } }));
    const lantern = await upload(['ZAN-1,Zanzibar lantern,30.00,EUR,5,home/lighting']);
    // The product and its offer: each retried 10 times alone, then dead-lettered.
    await until(deadLetters, (count) => count === 2, 180_000);
    // Its products are not searchable, so the feed does not read completed.
    expect(await feedStatus(lantern)).toBe('processing');

    // The fix, then the replay: the lantern was never indexed until now, and its feed completes then.
    await table.send(new PutCommand({ TableName: runtime.env.TABLE_NAME, Item: head }));
    expect(await searchTitles('zanzibar')).toEqual([]);
    const replayed = await admin('replay-dead-letters', 'searchIndexChanges');
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain('searchIndexChanges: 2 dead letters replayed.');
    expect((await waitForFeed(client, seller.apiKey, lantern)).status).toBe('completed');
    expect(await searchTitles('zanzibar')).toEqual(['Zanzibar lantern']);
    expect(await deadLetters()).toBe(0);
  });

  it('refuses a worker that has no dead letters, naming those that do', async () => {
    const refused = await admin('replay-dead-letters', 'negotiationExpiry');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('negotiationExpiry has no dead-letter queue: one of ');
    const named = /one of ([^(\n]*)/.exec(refused.stderr)?.[1]?.trim().split(', ') ?? [];
    expect(named).toEqual(expect.arrayContaining(['feedUploads', 'webhookFanOut', 'webhookDelivery', 'searchIndexChanges', 'requestLogWriter']));
    expect(named).not.toContain('negotiationExpiry');
  });
});

describe('rebuild-search-log', () => {
  it('brings back every product after the search log was lost', { timeout: 180_000 }, async () => {
    await feed(['OIL-1,Olive oil lantern,18.00,EUR,7,home/lighting', 'OIL-2,Olive oil canister,9.00,EUR,40,home/kitchen']);
    expect(await until(() => searchTitles('olive oil'), (titles) => titles.length === 2, 30_000)).toEqual(['Olive oil canister', 'Olive oil lantern']);

    // The whole log goes: head, entries, and with the head the snapshot it named.
    const log = await table.send(new QueryCommand({ TableName: runtime.env.TABLE_NAME, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'SEARCH_INDEX' } }));
    for (const item of log.Items ?? []) await table.send(new DeleteCommand({ TableName: runtime.env.TABLE_NAME, Key: { pk: item.pk, sk: item.sk } }));
    expect(await until(() => searchTitles('olive oil'), (titles) => titles.length === 0, 30_000)).toEqual([]);

    const rebuilt = await admin('rebuild-search-log');
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toMatch(/Appended \d+ products and offers to the search log/);
    expect(await until(() => searchTitles('olive oil'), (titles) => titles.length === 2, 30_000)).toEqual(['Olive oil canister', 'Olive oil lantern']);
  });
});
