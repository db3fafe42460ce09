// The child-process harness of the benches that run the local runtime (or a part of it, or one
// function) in a process of their own, so that the load generator never shares an event loop, a heap
// or a resident set with what it measures.
//
// A bench module is both sides: `startBenchChild({ module: import.meta.filename })` in the bench
// process forks the same module with `serve` as its first argument, where `serveLocalRuntime` (or
// `serveChild`) starts what the child serves, prepares its data and reports `ready`. The bench then
// sends named commands and awaits their answers, and `stop()` always ends the child and removes what
// the run created: on success, on failure, and on Ctrl-C (SIGINT/SIGTERM) of the bench process.
//
// Messages (IPC), bench → child: {type: 'command', id, name, payload}, {type: 'stop'};
// child → bench: {type: 'ready', data} once, {type: 'reply', id, result} or {type: 'failed', id,
// message} per command, {type: 'failed', message} when setting up failed. Every child answers the
// built-in commands `cpu` (process.cpuUsage()) and `memory` (VmHWM and VmRSS of /proc/self/status).
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent as HttpAgent } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LocalRuntime } from '../lib/local/runtime.ts';

/** The first argument of a forked bench module in its child role. */
export const SERVE = 'serve';

/** What a bench reports about its child's end: it exited, its folder is gone, no DynamoDB Local of its own is left. */
export interface ChildCleanup {
  serverExitCode: number | null;
  dataDirRemoved: boolean;
  /** DynamoDB Local processes still serving the child's folder after it exited (then killed). */
  javaLeft: number[];
}

export type CommandHandler = (payload: never) => unknown;
export type Commands = Record<string, CommandHandler>;

interface ToChild {
  type: 'command' | 'stop';
  id?: number;
  name?: string;
  payload?: unknown;
}

type FromChild =
  | { type: 'ready'; data: unknown }
  | { type: 'reply'; id: number; result: unknown }
  | { type: 'failed'; id?: number; message: string };

// ---------------------------------------------------------------------------------------------
// Shared
// ---------------------------------------------------------------------------------------------

const MIB = 1024 * 1024;

/** VmHWM (peak resident set) and VmRSS (current) of a process, in MiB (Linux /proc). */
export function processMemoryMb(pid: number | 'self' = 'self'): { peakRssMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`No ${name} in /proc/${pid}/status`);
    return (Number(match[1]) * 1024) / MIB;
  };
  return { peakRssMb: field('VmHWM'), rssMb: field('VmRSS') };
}

/** How the bench process reaches the child's DynamoDB Local. */
export interface DynamoAccess {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * A DynamoDB client in the bench process for the child's DynamoDB Local (own agent: its sockets are the
 * load's). Imported when asked for: a child that never uses it (the feed worker) does not load it.
 */
export async function dynamoClientFor(access: DynamoAccess, httpAgent?: HttpAgent): Promise<DynamoDBClient> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  return new DynamoDBClient({
    endpoint: access.endpoint,
    region: access.region,
    credentials: { accessKeyId: access.accessKeyId, secretAccessKey: access.secretAccessKey },
    ...(httpAgent ? { requestHandler: { httpAgent } } : {}),
  });
}

export type CallCounts = Record<string, number>;

export const sumCalls = (counts: CallCounts): number => Object.values(counts).reduce((total, n) => total + n, 0);

/** A JSON API call against the runtime's gateway: status, `data` and the whole answer as text (for errors). */
export type ApiCall = (method: string, route: string, apiKey?: string, body?: unknown) => Promise<{ status: number; data: Record<string, unknown>; text: string }>;

export function apiCaller(baseUrl: string): ApiCall {
  return async (method, route, apiKey, body) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = (text ? JSON.parse(text) : {}) as { data?: Record<string, unknown> };
    return { status: response.status, data: json.data ?? {}, text };
  };
}

// ---------------------------------------------------------------------------------------------
// Child side
// ---------------------------------------------------------------------------------------------

export interface ChildContext {
  /** The data folder the bench gave the child, if any. */
  dataDir: string | undefined;
  /** Arguments after the data folder. */
  args: string[];
  /** Registers what stops the child's resources; run once, on `stop`, on a signal or when the bench is gone. */
  onStop: (stopper: () => Promise<void> | void) => void;
}

export interface ChildSetup<Ready> {
  ready: Ready;
  commands?: Commands;
}

function send(message: FromChild): Promise<void> {
  return new Promise((resolve) => (process.send ? process.send(message, undefined, undefined, () => resolve()) : resolve()));
}

const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/** True in a bench module forked by startBenchChild. */
export function isBenchChild(): boolean {
  return process.argv[2] === SERVE;
}

/** The child's side: `start` sets up what the child serves and answers `ready` with its commands. */
export async function serveChild<Ready>(start: (context: ChildContext) => Promise<ChildSetup<Ready>>): Promise<void> {
  const [, , , dataDirArg, ...args] = process.argv;
  const stoppers: (() => Promise<void> | void)[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const stopper of stoppers.reverse()) {
      try {
        await stopper();
      } catch (error) {
        console.error('[bench child] error while stopping:', error);
      }
    }
    // At once, rather than wait for idle keep-alive sockets to time out.
    process.exit(code);
  };
  process.once('disconnect', () => void stop(1)); // the bench process is gone: never outlive it
  // A signal while stopping (the bench's kill after its grace period): leave now; the bench then
  // kills what is left of ours (DynamoDB Local, found by its folder).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (stopping ? process.exit(130) : void stop(130)));

  let commands: Commands = {};
  const builtIn: Commands = {
    cpu: () => process.cpuUsage(),
    memory: () => processMemoryMb(),
  };
  process.on('message', (message: ToChild) => {
    if (message.type === 'stop') return void stop(0);
    if (message.type !== 'command' || message.id === undefined) return;
    const id = message.id;
    const handler = commands[message.name ?? ''] ?? builtIn[message.name ?? ''];
    void Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`No command ${message.name}`);
        return handler(message.payload as never);
      })
      .then(
        (result) => send({ type: 'reply', id, result }),
        (error: unknown) => send({ type: 'failed', id, message: describe(error) }),
      );
  });

  try {
    const setup = await start({ dataDir: dataDirArg === '-' ? undefined : dataDirArg, args, onStop: (stopper) => stoppers.push(stopper) });
    commands = setup.commands ?? {};
    await send({ type: 'ready', data: setup.ready });
  } catch (error) {
    await send({ type: 'failed', message: describe(error) });
    await stop(1);
  }
}

/** The child's side with the whole local runtime (what `npm start` runs) in this process, on the bench's data folder. */
export function serveLocalRuntime<Ready>(setup: (runtime: LocalRuntime, args: string[]) => Promise<ChildSetup<Ready>>): Promise<void> {
  return serveChild(async ({ dataDir, args, onStop }) => {
    if (!dataDir) throw new Error('The local runtime needs a data folder');
    const started = performance.now();
    const { startLocalRuntime } = await import('../lib/local/runtime.ts');
    const runtime = await startLocalRuntime({ dataDir, port: 0, quiet: true });
    onStop(() => runtime.stop());
    runtimeStartSeconds = (performance.now() - started) / 1000;
    return setup(runtime, args);
  });
}

let runtimeStartSeconds = 0;

/**
 * In a child of serveLocalRuntime, once the runtime has started (the modules read its settings at
 * import): the module instances its handlers use, loaded in this process by the gateway, so that a bench
 * counts their DynamoDB calls and changes an agent's plan (no route does) as the handlers see it.
 */
export async function handlerModules() {
  const [{ dynamoDb }, { setAgentPlan }, { clearApiKeyCache }, { currentFunctionName }] = await Promise.all([
    import('../shared/data/client.ts'),
    import('../shared/data/agents.ts'),
    import('../shared/domain/api-key-cache.ts'),
    import('../lib/local/grant-checks.ts'),
  ]);
  return { dynamoDb, setAgentPlan, clearApiKeyCache, currentFunctionName };
}

/** In a child of serveLocalRuntime: how long the runtime took to start. */
export function localRuntimeStartSeconds(): number {
  return runtimeStartSeconds;
}

/** In the child: how the bench process reaches this runtime's DynamoDB Local. */
export function dynamoAccess(runtime: LocalRuntime): DynamoAccess {
  const env = { ...process.env, ...runtime.env };
  return {
    endpoint: runtime.endpoints.dynamodb,
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    accessKeyId: env.AWS_ACCESS_KEY_ID ?? 'local',
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? 'local',
  };
}

/**
 * In the child: counts the commands sent through `client` (and every document client built on it, which
 * shares its middleware stack), once per command at the initialize step; `include` narrows to some callers.
 */
export function countCalls(client: DynamoDBClient, include: () => boolean = () => true): { take(): CallCounts } {
  let counts: CallCounts = {};
  client.middlewareStack.add(
    (next, context) => (args) => {
      if (include()) {
        const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
        counts[name] = (counts[name] ?? 0) + 1;
      }
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return {
    take() {
      const taken = counts;
      counts = {};
      return taken;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Bench side
// ---------------------------------------------------------------------------------------------

export interface BenchChild<Ready> {
  readonly ready: Ready;
  readonly pid: number;
  readonly dataDir: string | undefined;
  /** Sends a command and resolves with the child's answer (rejects with its error, or if it exits). */
  command<T = unknown>(name: string, payload?: unknown, timeoutMs?: number): Promise<T>;
  /** The child's CPU time so far (user + system), in ms. */
  cpuMs(): Promise<number>;
  /** The child's peak and current resident set, in MiB. */
  memory(): Promise<{ peakRssMb: number; rssMb: number }>;
  /** Asks the child to stop, kills it if it does not, then removes its folder (if the harness made it). Idempotent. */
  stop(): Promise<ChildCleanup>;
}

export interface BenchChildOptions {
  /** The bench module to fork in its child role (its `import.meta.filename`). */
  module: string;
  /** Passed to the child after the data folder. */
  args?: string[];
  /** A fresh folder under the system's temporary folder with this prefix, removed when the child stops. */
  tmpPrefix?: string;
  /** Or a folder the caller owns (see benchTempDir); kept when the child stops. */
  dataDir?: string;
  /** Added to this process's environment (LOG_LEVEL is SILENT unless given). */
  env?: Record<string, string>;
  /** How long setting up may take before `ready` (default 5 minutes). */
  readyTimeoutMs?: number;
}

const live = new Set<{ interrupt(): Promise<void> }>();
const ownedDirs = new Set<string>();
let interrupting = false;

/** Ctrl-C (or a signal to this process only): stop every child, remove what the run created, then exit. */
function onSignal(signal: NodeJS.Signals): void {
  if (interrupting) return;
  interrupting = true;
  void Promise.all([...live].map((child) => child.interrupt()))
    .then(() => Promise.all([...ownedDirs].map((dir) => rm(dir, { recursive: true, force: true }))))
    .then(() => rm(path.join(import.meta.dirname, '.tmp'), { recursive: true, force: true })) // npm run bench's bundles
    .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
}

function watchSignals(): void {
  if (!process.listeners('SIGINT').includes(onSignal)) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
}

function unwatchSignals(): void {
  if (live.size > 0 || ownedDirs.size > 0) return;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

/** A temporary folder that a Ctrl-C of the bench also removes; `remove()` when done with it. */
export async function benchTempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  ownedDirs.add(dir);
  watchSignals();
  return {
    path: dir,
    async remove() {
      await rm(dir, { recursive: true, force: true });
      ownedDirs.delete(dir);
      unwatchSignals();
    },
  };
}

async function dynamoDbLocalPids(dataDir: string): Promise<number[]> {
  const { dynamoDbLocalPidsFor } = await import('../lib/local/dynamodb-local.ts');
  return dynamoDbLocalPidsFor(dataDir);
}

/** Waits for the DynamoDB Local of a stopped child to go, killing what is left (found by its folder: only ours). */
async function reapDynamoDbLocal(dataDir: string): Promise<number[]> {
  let left = await dynamoDbLocalPids(dataDir);
  for (let i = 0; left.length > 0 && i < 20; i++) {
    await sleep(250);
    left = await dynamoDbLocalPids(dataDir);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}

/** Forks `module` in its child role and resolves once it is ready; rejects (having cleaned up) if it fails first. */
export async function startBenchChild<Ready>(options: BenchChildOptions): Promise<BenchChild<Ready>> {
  watchSignals();
  const ownsDir = options.tmpPrefix !== undefined;
  const dataDir = ownsDir ? await mkdtemp(path.join(tmpdir(), options.tmpPrefix as string)) : options.dataDir;
  if (ownsDir) ownedDirs.add(dataDir as string);
  const child: ChildProcess = fork(options.module, [SERVE, dataDir ?? '-', ...(options.args ?? [])], {
    env: { ...process.env, LOG_LEVEL: 'SILENT', ...options.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let readyWaiter: { resolve(value: unknown): void; reject(error: Error): void } | undefined;
  const readyPromise = new Promise<unknown>((resolve, reject) => (readyWaiter = { resolve, reject }));
  readyPromise.catch(() => undefined);

  child.on('message', (message: FromChild) => {
    if (message.type === 'ready') readyWaiter?.resolve(message.data);
    else if (message.type === 'reply') {
      pending.get(message.id)?.resolve(message.result);
      pending.delete(message.id);
    } else if (message.id !== undefined) {
      pending.get(message.id)?.reject(new Error(`Bench child (${path.basename(options.module)}) failed: ${message.message}`));
      pending.delete(message.id);
    } else readyWaiter?.reject(new Error(`Bench child (${path.basename(options.module)}) failed: ${message.message}`));
  });
  void exited.then((code) => {
    const error = new Error(`Bench child (${path.basename(options.module)}) exited (${code ?? child.signalCode})`);
    readyWaiter?.reject(error);
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });

  let stopping: Promise<ChildCleanup> | undefined;
  const stop = (): Promise<ChildCleanup> =>
    (stopping ??= (async () => {
      if (child.connected) child.send({ type: 'stop' } satisfies ToChild);
      // Unreferenced timers: a pending timeout must not keep the bench alive after the child exits.
      let code = await Promise.race([exited, sleep(30_000, 'timeout' as const, { ref: false })]);
      if (code === 'timeout') {
        child.kill('SIGTERM');
        code = await Promise.race([exited, sleep(10_000, 'timeout' as const, { ref: false })]);
        if (code === 'timeout') {
          child.kill('SIGKILL');
          code = await exited;
        }
      }
      const javaLeft = dataDir ? await reapDynamoDbLocal(dataDir) : [];
      if (ownsDir) {
        await rm(dataDir as string, { recursive: true, force: true });
        ownedDirs.delete(dataDir as string);
      }
      live.delete(handle);
      unwatchSignals();
      return { serverExitCode: code, dataDirRemoved: ownsDir, javaLeft };
    })());
  const handle = { interrupt: async () => void (await stop()) };
  live.add(handle);

  let ready: Ready;
  try {
    const timeoutMs = options.readyTimeoutMs ?? 300_000;
    ready = (await Promise.race([readyPromise, sleep(timeoutMs, 'timeout' as const, { ref: false })])) as Ready;
    if ((ready as unknown) === 'timeout') throw new Error(`Bench child (${path.basename(options.module)}) was not ready within ${timeoutMs / 1000} s`);
  } catch (error) {
    await stop();
    throw error;
  }

  const command = <T>(name: string, payload?: unknown, timeoutMs = 600_000): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!child.connected) return reject(new Error(`Bench child (${path.basename(options.module)}) is gone`));
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`Bench child (${path.basename(options.module)}) did not answer '${name}' within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      timer.unref();
      pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value as T)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      child.send({ type: 'command', id, name, payload } satisfies ToChild);
    });
  return {
    ready,
    pid: child.pid as number,
    dataDir,
    command,
    cpuMs: async () => {
      const usage = await command<NodeJS.CpuUsage>('cpu', undefined, 10_000);
      return (usage.user + usage.system) / 1000;
    },
    memory: () => command('memory', undefined, 10_000),
    stop,
  };
}

/** What a bench that drives the API against raw DynamoDB Local holds while it measures. */
export interface ApiAndDynamo<Ready> {
  server: BenchChild<Ready>;
  /** Keep-alive sockets to the local gateway, `concurrency` of them. */
  httpAgent: HttpAgent;
  /** A document client on the child's DynamoDB Local, over `concurrency` keep-alive sockets of its own. */
  documents: DynamoDBDocumentClient;
}

/**
 * Starts `module` as the bench child (serveLocalRuntime, its ready data saying how to reach DynamoDB
 * Local), opens the connections both sides of the comparison use, runs `measure`, and closes them and
 * stops the child whether it succeeded or not: its result comes back with the child's cleanup.
 */
export async function measureApiAndDynamo<Ready extends { dynamo: DynamoAccess }, Result extends object>(
  options: { module: string; tmpPrefix: string; concurrency: number },
  measure: (open: ApiAndDynamo<Ready>) => Promise<Result>,
): Promise<Result & { cleanup: ChildCleanup }> {
  const server = await startBenchChild<Ready>({ module: options.module, tmpPrefix: options.tmpPrefix });
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: options.concurrency });
  const dynamoAgent = new HttpAgent({ keepAlive: true, maxSockets: options.concurrency });
  let dynamo: DynamoDBClient | undefined;
  let result: Result;
  let cleanup: ChildCleanup;
  try {
    dynamo = await dynamoClientFor(server.ready.dynamo, dynamoAgent);
    // Imported here, as dynamoClientFor imports the client: the harness loads no AWS SDK in a child.
    const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
    result = await measure({ server, httpAgent, documents: DynamoDBDocumentClient.from(dynamo) });
  } finally {
    httpAgent.destroy();
    dynamoAgent.destroy();
    dynamo?.destroy();
    cleanup = await server.stop();
  }
  return { ...result, cleanup };
}
