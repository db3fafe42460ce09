// Throughput of GET /v1/agents/me through the local runtime against raw DynamoDB Local GetItem, and
// the DynamoDB calls one authenticated GET costs.
//
// Two processes, so that the load generator never shares an event loop with the server it measures:
// - the server (`node bench/throughput.ts serve <dataDir>`, forked by measureThroughput) starts the
//   local runtime, whose gateway runs the handlers in that process; it counts the handlers' DynamoDB
//   calls with a middleware on the shared client, registers an agent, makes it `enterprise`, and
//   reports what the load generator needs;
// - the load generator (the bench process) drives the gateway over HTTP and DynamoDB Local with the
//   document client, at the same concurrency, for the same time, interleaved.
import { fork } from 'node:child_process';
import { Agent as HttpAgent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { closedLoop, type LoadWindow } from './load.ts';
import { round } from './stats.ts';

export type CallCounts = Record<string, number>;

export interface DynamoCallsResult {
  /** The free-plan agent's first GET: key lookup (cache cold) + rate limit + profile. */
  coldFirstRequest: CallCounts & { total: number };
  /** Each of the warm GETs after it (key lookup cached): per request. */
  warmRequests: number[];
  warmPerRequest: number;
  warmByCommand: CallCounts;
  /** POST /v1/agents/register, for information. */
  registration: CallCounts & { total: number };
}

interface Ready {
  type: 'ready';
  baseUrl: string;
  dynamo: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
  tableName: string;
  agentId: string;
  apiKey: string;
  calls: DynamoCallsResult;
  runtimeStartSeconds: number;
}

interface Stopped {
  type: 'stopped';
  /** Handler DynamoDB calls between `ready` and `stop`: the load phase. */
  callsUnderLoad: CallCounts;
}

/** The server process's CPU time so far (process.cpuUsage), in microseconds. */
interface CpuReport {
  type: 'cpu';
  user: number;
  system: number;
}

type ServerMessage = Ready | Stopped | CpuReport | { type: 'error'; message: string };

/** CPU milliseconds per request of each process while one target was under load. */
export interface CpuPerRequest {
  /** The local runtime's Node process: gateway, handlers, their SDK client (and idle emulators). */
  runtimeNode: number;
  /** DynamoDB Local's JVM. */
  dynamoDbLocal: number;
  /** This process: the HTTP or SDK client generating the load. */
  loadGenerator: number;
}

export interface ThroughputResult {
  concurrency: number;
  warmupSeconds: number;
  measuredSeconds: number;
  apiRequestsPerSecond: number;
  dynamoRequestsPerSecond: number;
  ratio: number;
  apiWindows: LoadWindow[];
  dynamoWindows: LoadWindow[];
  /** Where the CPU went, per request, for each target: what bounds each rate on a 2-core machine. */
  cpuMsPerRequest: { api: CpuPerRequest; dynamo: CpuPerRequest };
  /** Handler DynamoDB calls per API request during the load (enterprise: no rate-limit write). */
  dynamoCallsPerApiRequestUnderLoad: number;
  runtimeStartSeconds: number;
  calls: DynamoCallsResult;
  cleanup: { serverExitCode: number | null; dataDirRemoved: boolean; javaLeft: number[] };
}

// ---------------------------------------------------------------------------------------------
// Server side
// ---------------------------------------------------------------------------------------------

function sum(counts: CallCounts): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}

async function serve(dataDir: string): Promise<void> {
  const send = (message: ServerMessage) =>
    new Promise<void>((resolve) => {
      if (!process.send) resolve();
      else process.send(message, undefined, undefined, () => resolve());
    });
  const started = performance.now();
  const { startLocalRuntime } = await import('../lib/local/runtime.ts');
  const runtime = await startLocalRuntime({ dataDir, port: 0, quiet: true });
  const runtimeStartSeconds = (performance.now() - started) / 1000;
  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    await runtime.stop();
    // Exit at once rather than wait for idle keep-alive sockets to time out.
    process.exit(exitCode);
  };
  process.once('disconnect', () => void stop(1)); // the bench process is gone: never outlive it
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(130));

  try {
    // The same module instances as the handlers the gateway loaded: the counter sees their calls.
    const { dynamoDb } = await import('../shared/data/client.ts');
    const { setAgentPlan } = await import('../shared/data/agents.ts');
    const { clearApiKeyCache } = await import('../shared/domain/api-key-cache.ts');
    let counts: CallCounts = {};
    // initialize step: once per command sent, whichever client (base or document) sends it — the
    // document client shares the base client's middleware stack.
    dynamoDb.middlewareStack.add(
      (next, context) => (args) => {
        const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
        counts[name] = (counts[name] ?? 0) + 1;
        return next(args);
      },
      { step: 'initialize', name: 'benchCallCounter' },
    );
    const take = (): CallCounts => {
      const taken = counts;
      counts = {};
      return taken;
    };

    const base = runtime.baseUrl;
    take();
    const registered = await fetch(`${base}/v1/agents/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench buyer',
        role: 'buyer',
        organization: { legalName: 'Bench GmbH', country: 'DE' },
        contactEmail: 'bench@bench.example',
      }),
    });
    if (registered.status !== 201) throw new Error(`Registration answered ${registered.status}: ${await registered.text()}`);
    const { data } = (await registered.json()) as { data: { agentId: string; apiKey: string } };
    const registration = take();

    const getMe = async (): Promise<Response> => {
      const response = await fetch(`${base}/v1/agents/me`, { headers: { authorization: `Bearer ${data.apiKey}` } });
      if (response.status !== 200) throw new Error(`GET /v1/agents/me answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      return response;
    };
    await getMe();
    const coldFirstRequest = take();
    const warmRequests: number[] = [];
    const warmByCommand: CallCounts = {};
    for (let i = 0; i < 10; i++) {
      await getMe();
      const seen = take();
      warmRequests.push(sum(seen));
      for (const [name, n] of Object.entries(seen)) warmByCommand[name] = (warmByCommand[name] ?? 0) + n;
    }

    // The free plan allows 60 requests a minute: the load runs as an enterprise agent (no limits,
    // no rate-limit write). The plan is cached with the key, so this container forgets the key.
    if (!(await setAgentPlan(data.agentId, 'enterprise', new Date().toISOString()))) throw new Error('setAgentPlan found no agent');
    clearApiKeyCache();
    const unlimited = await getMe();
    if (unlimited.headers.get('x-ratelimit-limit') !== '2147483647') {
      throw new Error(`The agent is not unlimited after the plan change (X-RateLimit-Limit ${unlimited.headers.get('x-ratelimit-limit')})`);
    }
    take();

    const env = { ...process.env, ...runtime.env };
    const endpoint = runtime.endpoints.dynamodb;
    if (env.AWS_ENDPOINT_URL_DYNAMODB !== endpoint) throw new Error('The handlers do not see the DynamoDB Local endpoint');
    // Listening before `ready`, so that no request of the load generator can arrive unheard.
    const stopRequested = new Promise<void>((resolve) =>
      process.on('message', (message: { type?: string }) => {
        if (message.type === 'cpu') void send({ type: 'cpu', ...process.cpuUsage() });
        if (message.type === 'stop') resolve();
      }),
    );
    await send({
      type: 'ready',
      baseUrl: base,
      dynamo: {
        endpoint,
        region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
        accessKeyId: env.AWS_ACCESS_KEY_ID ?? 'local',
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? 'local',
      },
      tableName: env.TABLE_NAME ?? '',
      agentId: data.agentId,
      apiKey: data.apiKey,
      runtimeStartSeconds,
      calls: {
        coldFirstRequest: { ...coldFirstRequest, total: sum(coldFirstRequest) },
        warmRequests,
        warmPerRequest: sum(warmByCommand) / warmRequests.length,
        warmByCommand,
        registration: { ...registration, total: sum(registration) },
      },
    });

    await stopRequested;
    const callsUnderLoad = take();
    await send({ type: 'stopped', callsUnderLoad });
    await stop(0);
  } catch (error) {
    await send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    await stop(1);
  }
}

// ---------------------------------------------------------------------------------------------
// Load-generator side
// ---------------------------------------------------------------------------------------------

function httpGet(agent: HttpAgent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, hostname: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface ThroughputOptions {
  concurrency?: number;
  warmupSeconds?: number;
  /** Per target, split into four interleaved windows. */
  measuredSeconds?: number;
}

export async function measureThroughput({ concurrency = 16, warmupSeconds = 1.5, measuredSeconds = 5 }: ThroughputOptions = {}): Promise<ThroughputResult> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'agent-marketplace-bench-'));
  const server = fork(path.join(import.meta.dirname, 'throughput.ts'), ['serve', dataDir], {
    env: { ...process.env, LOG_LEVEL: 'SILENT' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  const messages: ServerMessage[] = [];
  let wake: (() => void) | undefined;
  server.on('message', (message: ServerMessage) => {
    messages.push(message);
    wake?.();
  });
  const next = async (type: ServerMessage['type'], timeoutMs: number): Promise<ServerMessage> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = messages.findIndex((message) => message.type === type || message.type === 'error');
      const found = messages[index];
      if (found) {
        messages.splice(index, 1);
        if (found.type === 'error') throw new Error(`Bench server failed: ${found.message}`);
        return found;
      }
      if (server.exitCode !== null || server.signalCode !== null) throw new Error(`Bench server exited (${server.exitCode ?? server.signalCode})`);
      if (Date.now() > deadline) throw new Error(`Bench server sent no '${type}' within ${timeoutMs / 1000} s`);
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), sleep(250, undefined, { ref: false })]);
    }
  };

  // Interrupted (Ctrl-C, or a signal to this process only): let the server stop its runtime, then
  // remove what this run created, and only then exit.
  const interrupted = (signal: NodeJS.Signals) => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    void Promise.race([exited, sleep(15_000, undefined, { ref: false })])
      .then(() => cleanUp(dataDir, server.exitCode))
      .then(() => rm(path.join(import.meta.dirname, '.tmp'), { recursive: true, force: true }))
      .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  let result: Omit<ThroughputResult, 'cleanup'> | undefined;
  let failure: unknown;
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: concurrency });
  const dynamoAgent = new HttpAgent({ keepAlive: true, maxSockets: concurrency });
  let dynamo: DynamoDBClient | undefined;
  try {
    const ready = (await next('ready', 90_000)) as Ready;
    dynamo = new DynamoDBClient({
      endpoint: ready.dynamo.endpoint,
      region: ready.dynamo.region,
      credentials: { accessKeyId: ready.dynamo.accessKeyId, secretAccessKey: ready.dynamo.secretAccessKey },
      requestHandler: { httpAgent: dynamoAgent },
    });
    const documents = DynamoDBDocumentClient.from(dynamo);
    const getItem = new GetCommand({ TableName: ready.tableName, Key: { pk: `AGENT#${ready.agentId}`, sk: 'AGENT' } });
    const probe = await documents.send(getItem);
    if (probe.Item?.agentId !== ready.agentId) throw new Error(`GetItem on ${ready.tableName} did not return the agent`);

    const url = new URL('/v1/agents/me', ready.baseUrl);
    const headers = { authorization: `Bearer ${ready.apiKey}` };
    const api = async () => (await httpGet(httpAgent, url, headers)) === 200;
    const raw = async () => (await documents.send(getItem)).Item !== undefined;

    const apiWarmup = await closedLoop(api, concurrency, warmupSeconds);
    await closedLoop(raw, concurrency, warmupSeconds);
    // Four short windows each, in the order A B B A B A A B, so that drift (JIT warming, GC, other
    // load on the machine) favours neither. CPU time of the three processes is read around each.
    const javaPids = await dynamoDbLocalPids(dataDir);
    const cpu = async () => {
      server.send({ type: 'cpu' });
      const report = (await next('cpu', 10_000)) as CpuReport;
      const own = process.cpuUsage();
      return {
        runtimeNode: (report.user + report.system) / 1000,
        dynamoDbLocal: javaPids.reduce((ms, pid) => ms + processCpuMs(pid), 0),
        loadGenerator: (own.user + own.system) / 1000,
      };
    };
    const window = measuredSeconds / 4;
    const apiWindows: LoadWindow[] = [];
    const dynamoWindows: LoadWindow[] = [];
    const spent = { api: { runtimeNode: 0, dynamoDbLocal: 0, loadGenerator: 0 }, raw: { runtimeNode: 0, dynamoDbLocal: 0, loadGenerator: 0 } };
    for (const target of ['api', 'raw', 'raw', 'api', 'raw', 'api', 'api', 'raw'] as const) {
      const before = await cpu();
      const measured = await closedLoop(target === 'api' ? api : raw, concurrency, window);
      const after = await cpu();
      (target === 'api' ? apiWindows : dynamoWindows).push(measured);
      for (const key of ['runtimeNode', 'dynamoDbLocal', 'loadGenerator'] as const) spent[target][key] += after[key] - before[key];
    }
    const perRequest = (totals: CpuPerRequest, windows: LoadWindow[]): CpuPerRequest => {
      const requests = windows.reduce((n, w) => n + w.requests, 0);
      return {
        runtimeNode: round(totals.runtimeNode / requests, 3),
        dynamoDbLocal: round(totals.dynamoDbLocal / requests, 3),
        loadGenerator: round(totals.loadGenerator / requests, 3),
      };
    };

    const rate = (windows: LoadWindow[]) =>
      windows.reduce((n, w) => n + w.requests, 0) / windows.reduce((s, w) => s + w.seconds, 0);
    const apiRequestsPerSecond = rate(apiWindows);
    const dynamoRequestsPerSecond = rate(dynamoWindows);
    const errors = [...apiWindows, ...dynamoWindows].reduce((n, w) => n + w.errors, 0);
    if (errors > 0) throw new Error(`${errors} requests failed under load`);

    server.send({ type: 'stop' });
    const stopped = (await next('stopped', 30_000)) as Stopped;
    // Everything the handlers sent while the load ran, per API request of the whole load phase
    // (warm-up included: the counter ran through it too).
    const apiRequests = [apiWarmup, ...apiWindows].reduce((n, w) => n + w.requests + w.errors, 0);
    result = {
      concurrency,
      warmupSeconds,
      measuredSeconds,
      apiRequestsPerSecond: round(apiRequestsPerSecond, 0),
      dynamoRequestsPerSecond: round(dynamoRequestsPerSecond, 0),
      ratio: round(apiRequestsPerSecond / dynamoRequestsPerSecond, 3),
      apiWindows: apiWindows.map(roundWindow),
      dynamoWindows: dynamoWindows.map(roundWindow),
      cpuMsPerRequest: { api: perRequest(spent.api, apiWindows), dynamo: perRequest(spent.raw, dynamoWindows) },
      dynamoCallsPerApiRequestUnderLoad: round(sum(stopped.callsUnderLoad) / apiRequests, 3),
      runtimeStartSeconds: round(ready.runtimeStartSeconds, 1),
      calls: ready.calls,
    };
  } catch (error) {
    failure = error;
  } finally {
    httpAgent.destroy();
    dynamoAgent.destroy();
    dynamo?.destroy();
    if (server.connected) server.send({ type: 'stop' });
    // Unreferenced timers: a pending timeout must not keep the bench alive after the server exits.
    const code = await Promise.race([exited, sleep(30_000, 'timeout' as const, { ref: false })]);
    if (code === 'timeout') {
      server.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000, undefined, { ref: false })]);
    }
  }
  process.off('SIGINT', interrupted);
  process.off('SIGTERM', interrupted);
  const cleanup = await cleanUp(dataDir, server.exitCode);
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(JSON.stringify(failure));
  if (!result) throw new Error('No throughput result');
  return { ...result, cleanup };
}

function roundWindow(window: LoadWindow): LoadWindow {
  return { ...window, seconds: round(window.seconds, 2), requestsPerSecond: round(window.requestsPerSecond, 0) };
}

async function dynamoDbLocalPids(dataDir: string): Promise<number[]> {
  const { dynamoDbLocalPidsFor } = await import('../lib/local/dynamodb-local.ts');
  return dynamoDbLocalPidsFor(dataDir);
}

/** utime + stime of a process from /proc/<pid>/stat, in milliseconds (Linux; 0 elsewhere). */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // fields 14 and 15 of stat(5)
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;

export async function cleanUp(dataDir: string, serverExitCode: number | null): Promise<ThroughputResult['cleanup']> {
  let javaLeft = await dynamoDbLocalPids(dataDir);
  for (let i = 0; javaLeft.length > 0 && i < 20; i++) {
    await sleep(250);
    javaLeft = await dynamoDbLocalPids(dataDir);
  }
  for (const pid of javaLeft) {
    try {
      process.kill(pid, 'SIGKILL'); // only the DynamoDB Local this bench started, found by its data folder
    } catch {
      // already gone
    }
  }
  await rm(dataDir, { recursive: true, force: true });
  return { serverExitCode, dataDirRemoved: true, javaLeft };
}

if (import.meta.main && process.argv[2] === 'serve') {
  await serve(process.argv[3] as string);
}
