// The local runtime's lifecycle, through `npm start` (bin/local.ts) and startLocalRuntime: records
// survive a restart on the same data folder, a folder in use is refused, SIGINT and stop() leave no
// DynamoDB Local process behind (and stop quietly, even during a search snapshot), and start-up
// problems fail fast with one line.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { SearchHeadEntity, SearchLogEntryEntity } from '../../shared/data/search-log.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../lib/local/aws.ts';
import { runtimeFilePath, type RuntimeFile } from '../../lib/local/runtime.ts';
import { dynamoDbLocalPidsFor } from '../../lib/local/dynamodb-local.ts';
import { LocalRuntimeError } from '../../lib/local/errors.ts';
import { startLocalRuntime } from '../../lib/local/runtime.ts';
import { listeningUrl, spawnLocalCommand } from '../../lib/local/local-command.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'runtime-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function runLocalCommand(env: Record<string, string>): ChildProcess {
  const child = spawnLocalCommand(env);
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveExit) => child.once('exit', (code) => resolveExit({ code, stderr })));
}

const registration = {
  name: 'Restart test agent',
  role: 'seller',
  organization: { legalName: 'Restart GmbH', country: 'DE' },
  contactEmail: 'restart@example.com',
};

// Two JVM starts: under load each can take tens of seconds.
it('keeps every record across a restart on the same data folder, and leaves no Java process behind', { timeout: 240_000 }, async () => {
  const command = runLocalCommand({ DATA_DIR: dataDir, PORT: '0' });
  const baseUrl = await listeningUrl(command);
  const registered = await fetch(`${baseUrl}/v1/agents/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registration),
  });
  expect(registered.status).toBe(201);
  const { data: agent } = (await registered.json()) as { data: { agentId: string; apiKey: string } };
  expect(existsSync(join(dataDir, 'runtime.json'))).toBe(true);
  await expect(startLocalRuntime({ dataDir, port: 0 })).rejects.toThrow(LocalRuntimeError); // in use

  const stopped = exited(command);
  command.kill('SIGINT');
  expect((await stopped).code).toBe(0);
  expect(dynamoDbLocalPidsFor(dataDir)).toEqual([]);
  expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);

  const restarted = await startLocalRuntime({ dataDir, port: 0, quiet: true });
  try {
    const me = await fetch(`${restarted.baseUrl}/v1/agents/me`, { headers: { authorization: `Bearer ${agent.apiKey}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { agentId: string } }).data.agentId).toBe(agent.agentId);
  } finally {
    await restarted.stop();
  }
  expect(dynamoDbLocalPidsFor(dataDir)).toEqual([]);
  expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
});

describe('start-up problems fail fast with one line', () => {
  it('a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolveListening) => blocker.listen(0, '127.0.0.1', resolveListening));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await exited(runLocalCommand({ DATA_DIR: join(dataDir, 'port-in-use'), PORT: String(port) }));
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`Cannot start the local runtime: Port ${port} (API) is already in use; set PORT to use another one`);
    } finally {
      blocker.close();
    }
  });

  it('no Java', async () => {
    const result = await exited(runLocalCommand({ DATA_DIR: join(dataDir, 'no-java'), PORT: '0', PATH: '/nonexistent' }));
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('Cannot start the local runtime: Java is not installed (no `java` on PATH); DynamoDB Local needs Java 17 or later');
  });
});

/** Resolves once `text()` contains `marker`; a readiness signal, bounded only so that a broken start fails. */
async function printed(text: () => string, marker: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!text().includes(marker)) {
    if (child.exitCode !== null) throw new Error(`npm start exited before printing ${marker}:\n${text()}`);
    if (Date.now() > deadline) throw new Error(`npm start did not print ${marker} within ${timeoutMs} ms:\n${text()}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}

/** Writes a search log of `entries` entries of ~250 KB each straight into the runtime's table: a snapshot of more than a request's worth. */
async function writeLargeSearchLog(runtime: RuntimeFile, entries: number): Promise<void> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: runtime.endpoints.dynamodb, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }));
  const TableName = runtime.env.TABLE_NAME;
  const now = new Date();
  try {
    for (let seq = 1; seq <= entries; seq++) {
      const id = `${String(seq).padStart(26, '0')}`;
      // An inactive product without an offer: stored in the replica (and its snapshot), never searchable.
      const changes = [{ kind: 'product', item: { productId: `prd_${id}`, standingOfferId: `ofr_${id}`, status: 'inactive', description: randomBytes(180_000).toString('base64') } }];
      const item = SearchLogEntryEntity.toItem({ seq, changes: JSON.stringify(changes), recordedAt: now.toISOString(), expiresAt: Math.floor(now.getTime() / 1000) + 3600 }, { seq });
      await client.send(new PutCommand({ TableName, Item: item }));
    }
    // The head last: the snapshot worker sees the entries only once they all exist.
    const head = SearchHeadEntity.toItem({ seq: entries, snapshotSeq: 0, snapshotKey: null, snapshotAt: null, updatedAt: now.toISOString() }, {});
    await client.send(new PutCommand({ TableName, Item: head }));
  } finally {
    client.destroy();
  }
}

it('stops quietly on SIGINT while a search snapshot of more than 11 MiB is being written, once the snapshot is finished', { timeout: 300_000 }, async () => {
  const snapshotDir = join(dataDir, 'snapshot-stop');
  const command = runLocalCommand({ DATA_DIR: snapshotDir, PORT: '0', LOCAL_SCHEDULE_SECONDS: '1', SEARCH_SNAPSHOT_MIN_ENTRIES: '1', LOG_LEVEL: 'INFO' });
  let stdout = '';
  let stderr = '';
  command.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  command.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await listeningUrl(command);
  const runtime = JSON.parse(readFileSync(runtimeFilePath(snapshotDir), 'utf8')) as RuntimeFile;
  await writeLargeSearchLog(runtime, 60);

  await printed(() => stdout, 'Search index snapshot started', command, 120_000);
  const stopped = new Promise<number | null>((resolveExit) => command.once('exit', (code) => resolveExit(code)));
  command.kill('SIGINT');
  expect(await stopped, stderr).toBe(0);
  expect(stderr).toBe('');
  expect(stdout).toContain('Search index snapshot written'); // the snapshot in progress was finished, not cut
  expect(stdout).not.toMatch(/EPIPE|\n\s+at /);
  expect(dynamoDbLocalPidsFor(snapshotDir)).toEqual([]);
});
