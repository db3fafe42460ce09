// Throughput of GET /v1/agents/me through the local runtime against raw DynamoDB Local GetItem, and
// the DynamoDB calls one authenticated GET costs; then the same GET with a restricted key against the
// main key, side by side (restrictedKeyAuthOverheadRatio).
//
// Two processes (bench/harness.ts), so that the load generator never shares an event loop with the
// server it measures:
// - the server (this module forked in its child role) starts the local runtime, whose gateway runs the
//   handlers in that process; it counts the handlers' DynamoDB calls with a middleware on the shared
//   client, registers an agent, makes it `enterprise`, and reports what the load generator needs;
// - the load generator (the bench process) drives the gateway over HTTP and DynamoDB Local with the
//   document client, at the same concurrency, for the same time, interleaved.
import { request, type Agent as HttpAgent } from 'node:http';
import { readFileSync } from 'node:fs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { countCalls, dynamoAccess, handlerModules, isBenchChild, localRuntimeStartSeconds, measureApiAndDynamo, serveLocalRuntime, sumCalls, type CallCounts, type ChildCleanup, type DynamoAccess } from './harness.ts';
import { workers } from '../functions/registry.ts';
import { closedLoop, type LoadWindow } from './load.ts';
import { round } from './stats.ts';

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
  baseUrl: string;
  dynamo: DynamoAccess;
  tableName: string;
  agentId: string;
  apiKey: string;
  /** A restricted key of the same agent (scope catalog:read: GET /v1/agents/me takes any key). */
  restrictedKey: string;
  calls: DynamoCallsResult;
  /** The warm GETs with the restricted key: DynamoDB calls per request (its 1 s cache, against the main key's 30 s). */
  restrictedWarmPerRequest: number;
  runtimeStartSeconds: number;
}

/** The same GET with a restricted key and with the main key, in interleaved windows. */
export interface RestrictedKeyAuthResult {
  mainRequestsPerSecond: number;
  restrictedRequestsPerSecond: number;
  /** Time per request with the restricted key ÷ with the main key (main rate ÷ restricted rate). */
  ratio: number;
  mainWindows: LoadWindow[];
  restrictedWindows: LoadWindow[];
  /** DynamoDB calls per warm GET with the restricted key (the main key's: calls.warmPerRequest). */
  dynamoCallsPerRestrictedGet: number;
}

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
  restrictedKeyAuth: RestrictedKeyAuthResult;
  cleanup: ChildCleanup;
}

// ---------------------------------------------------------------------------------------------
// Server side
// ---------------------------------------------------------------------------------------------

/** The server: the local runtime, an enterprise agent, and the DynamoDB calls of its first GETs. */
async function serve(): Promise<void> {
  await serveLocalRuntime<Ready>(async (runtime) => {
    const { dynamoDb, setAgentPlan, clearApiKeyCache, currentFunctionName } = await handlerModules();
    // The route functions' calls only: the workers sharing this process (the request-log writer storing
    // these GETs' records, the schedules' sweeps) are other Lambda functions in a stack, off the request's path.
    const workerIds = new Set(workers.map((worker) => worker.id));
    const counter = countCalls(dynamoDb, () => !workerIds.has(currentFunctionName() ?? ''));
    const take = () => counter.take();

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
      warmRequests.push(sumCalls(seen));
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

    // A restricted key of the same (now unlimited) agent, made by its main key; its GETs, warm.
    const created = await fetch(`${base}/v1/agents/me/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${data.apiKey}` },
      body: JSON.stringify({ name: 'Bench program', scopes: ['catalog:read'] }),
    });
    if (created.status !== 201) throw new Error(`POST /v1/agents/me/keys answered ${created.status}: ${await created.text()}`);
    const restrictedKey = ((await created.json()) as { data: { apiKey: string } }).data.apiKey;
    const getWith = async (apiKey: string) => {
      const response = await fetch(`${base}/v1/agents/me`, { headers: { authorization: `Bearer ${apiKey}` } });
      if (response.status !== 200) throw new Error(`GET /v1/agents/me answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    await getWith(restrictedKey);
    take();
    for (let i = 0; i < 20; i++) await getWith(restrictedKey);
    const restrictedWarmPerRequest = sumCalls(take()) / 20;

    const env = { ...process.env, ...runtime.env };
    if (env.AWS_ENDPOINT_URL_DYNAMODB !== runtime.endpoints.dynamodb) throw new Error('The handlers do not see the DynamoDB Local endpoint');
    return {
      ready: {
        baseUrl: base,
        dynamo: dynamoAccess(runtime),
        tableName: env.TABLE_NAME ?? '',
        agentId: data.agentId,
        apiKey: data.apiKey,
        restrictedKey,
        restrictedWarmPerRequest,
        runtimeStartSeconds: localRuntimeStartSeconds(),
        calls: {
          coldFirstRequest: { ...coldFirstRequest, total: sumCalls(coldFirstRequest) },
          warmRequests,
          warmPerRequest: sumCalls(warmByCommand) / warmRequests.length,
          warmByCommand,
          registration: { ...registration, total: sumCalls(registration) },
        },
      },
      // Handler DynamoDB calls since `ready`: the load phase.
      commands: { callsUnderLoad: () => take() },
    };
  });
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

export function measureThroughput({ concurrency = 16, warmupSeconds = 1.5, measuredSeconds = 5 }: ThroughputOptions = {}): Promise<ThroughputResult> {
  const options = { module: import.meta.filename, tmpPrefix: 'agent-marketplace-bench-', concurrency };
  return measureApiAndDynamo<Ready, Omit<ThroughputResult, 'cleanup'>>(options, async ({ server, httpAgent, documents }) => {
    const ready = server.ready;
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
    const javaPids = await dynamoDbLocalPids(server.dataDir as string);
    const cpu = async () => {
      const runtimeNode = await server.cpuMs();
      const own = process.cpuUsage();
      return {
        runtimeNode,
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

    const callsUnderLoad = await server.command<CallCounts>('callsUnderLoad', undefined, 30_000);

    // The restricted key against the main key: the same GET, the same concurrency, interleaved windows.
    const restrictedHeaders = { authorization: `Bearer ${ready.restrictedKey}` };
    const restricted = async () => (await httpGet(httpAgent, url, restrictedHeaders)) === 200;
    await closedLoop(restricted, concurrency, warmupSeconds);
    const mainWindows: LoadWindow[] = [];
    const restrictedWindows: LoadWindow[] = [];
    for (const target of ['main', 'restricted', 'restricted', 'main', 'restricted', 'main', 'main', 'restricted'] as const) {
      const measured = await closedLoop(target === 'main' ? api : restricted, concurrency, window);
      (target === 'main' ? mainWindows : restrictedWindows).push(measured);
    }
    const keyErrors = [...mainWindows, ...restrictedWindows].reduce((n, w) => n + w.errors, 0);
    if (keyErrors > 0) throw new Error(`${keyErrors} requests failed under load (main vs restricted key)`);
    const mainRate = rate(mainWindows);
    const restrictedRate = rate(restrictedWindows);
    // Everything the handlers sent while the load ran, per API request of the whole load phase
    // (warm-up included: the counter ran through it too).
    const apiRequests = [apiWarmup, ...apiWindows].reduce((n, w) => n + w.requests + w.errors, 0);
    return {
      concurrency,
      warmupSeconds,
      measuredSeconds,
      apiRequestsPerSecond: round(apiRequestsPerSecond, 0),
      dynamoRequestsPerSecond: round(dynamoRequestsPerSecond, 0),
      ratio: round(apiRequestsPerSecond / dynamoRequestsPerSecond, 3),
      apiWindows: apiWindows.map(roundWindow),
      dynamoWindows: dynamoWindows.map(roundWindow),
      cpuMsPerRequest: { api: perRequest(spent.api, apiWindows), dynamo: perRequest(spent.raw, dynamoWindows) },
      dynamoCallsPerApiRequestUnderLoad: round(sumCalls(callsUnderLoad) / apiRequests, 3),
      runtimeStartSeconds: round(ready.runtimeStartSeconds, 1),
      calls: ready.calls,
      restrictedKeyAuth: {
        mainRequestsPerSecond: round(mainRate, 0),
        restrictedRequestsPerSecond: round(restrictedRate, 0),
        ratio: round(mainRate / restrictedRate, 3),
        mainWindows: mainWindows.map(roundWindow),
        restrictedWindows: restrictedWindows.map(roundWindow),
        dynamoCallsPerRestrictedGet: round(ready.restrictedWarmPerRequest, 3),
      },
    };
  });
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

if (isBenchChild()) await serve();
else if (import.meta.main) console.log(JSON.stringify(await measureThroughput(), null, 2));
