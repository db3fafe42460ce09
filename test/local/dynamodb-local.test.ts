// DynamoDB Local never outlives its owner: the watchdog kills it when the owner is SIGKILLed, and a
// start clears one that survived anyway (owner and watchdog both killed), recognising it by its
// command line. A taken port fails fast.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it, vi } from 'vitest';
import { dynamoDbLocalPidsFor, isDynamoDbLocalOn, startDynamoDbLocal } from '../../lib/local/dynamodb-local.ts';
import { LocalRuntimeError } from '../../lib/local/errors.ts';
import { isAlive } from '../../lib/local/processes.ts';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/start-dynamodb-local.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const pid of dynamoDbLocalPidsFor(dataDir)) process.kill(pid, 'SIGKILL');
  await sleep(100);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts DynamoDB Local in a child process; resolves with what it printed once it answers. */
function startInChild(): Promise<{ child: ChildProcess; pid: number; watchdogPid: number }> {
  const child = spawn(process.execPath, [FIXTURE, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolveStarted, reject) => {
    child.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      resolveStarted({ child, ...(JSON.parse(line) as { pid: number; watchdogPid: number }) });
    });
  });
}

/** Waits until the impostor's command line is in place (a busy machine may take a while to exec it). */
async function serving(child: ChildProcess, path: string): Promise<void> {
  await vi.waitFor(() => expect(isDynamoDbLocalOn(child.pid!, path)).toBe(true), { timeout: 20_000, interval: 50 });
}

const dbPath = () => resolve(dataDir, 'dynamodb');

/** A process whose command line looks like DynamoDB Local serving `path` (it only sleeps). */
function impostor(path: string): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', 'DynamoDBLocal.jar', '-dbPath', path], { stdio: 'ignore' });
  children.push(child);
  return child;
}

it('recognises DynamoDB Local by its jar and exact database folder', async () => {
  const other = impostor('/somewhere/else');
  await serving(other, '/somewhere/else');
  expect(isDynamoDbLocalOn(other.pid!, dbPath())).toBe(false);
  expect(isDynamoDbLocalOn(process.pid, dbPath())).toBe(false);
});

// A JVM start: under load it can take tens of seconds.
it('clears a stale instance left on the same folder, and dies with an owner killed by SIGKILL', { timeout: 120_000 }, async () => {
  // What a runtime killed together with its watchdog leaves: a pid file whose owner is gone, and
  // the process it names still serving the folder.
  const stale = impostor(dbPath());
  mkdirSync(dbPath(), { recursive: true });
  const record = { pid: stale.pid, ownerPid: 999_999, ownerIdentity: '1', watchdogPid: 999_998, port: 1 };
  writeFileSync(join(dbPath(), 'dynamodb-local.pid'), JSON.stringify(record));
  await serving(stale, dbPath());

  const owner = await startInChild();
  expect(isAlive(stale.pid!)).toBe(false);
  expect(dynamoDbLocalPidsFor(dataDir)).toEqual([owner.pid]);

  // SIGKILL leaves the owner no chance to clean up: the watchdog does.
  owner.child.kill('SIGKILL');
  // The watchdog looks every 0.5 s, then gives Java 10 s to stop before SIGKILL.
  await vi.waitFor(() => expect(isAlive(owner.pid)).toBe(false), { timeout: 30_000, interval: 50 });
  expect(dynamoDbLocalPidsFor(dataDir)).toEqual([]);
});

it('fails fast with a clear message when the port is taken', async () => {
  const blocker: Server = createServer();
  await new Promise<void>((resolveListening) => blocker.listen(0, resolveListening));
  const port = (blocker.address() as { port: number }).port;
  const started = Date.now();
  try {
    const attempt = startDynamoDbLocal({ dataDir: join(dataDir, 'port-taken'), port });
    await expect(attempt).rejects.toThrow(LocalRuntimeError);
    await expect(attempt).rejects.toThrow(`Port ${port} (DynamoDB Local) is already in use`);
    // Before any Java starts: far sooner than the 60 s a JVM start may take.
    expect(Date.now() - started).toBeLessThan(10_000);
  } finally {
    blocker.close();
  }
});
