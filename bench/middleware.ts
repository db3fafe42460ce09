// The shared middleware stack's own CPU cost per request, warm, with DynamoDB I/O stubbed out.
// Runs in a child process (bench/run.ts forks it) so that its environment, module state and JIT are
// its own: `node bench/middleware.ts` prints the figures as JSON.
//
// Two figures:
// - `stubbedClient`: aws-sdk-client-mock replaces the document client's send(); what remains is the
//   operation runner itself (request state, authenticate with a warm key cache, rate limit, authorize,
//   body, validation, idempotency, the response shaper) around a no-op operation, called in process
//   with a plain request (lib/local/in-process.ts). This is the target figure.
// - `stubbedHttp`: the real SDK pipeline (marshalling, serialisation, endpoint, SigV4 signing,
//   deserialisation) with only the HTTP exchange replaced by a canned answer. For information: what
//   the same request costs once the SDK's own client-side work is counted.
import type { Invocation, OperationRequest } from '../shared/http/api-state.ts';
import type { Operation } from '../shared/http/operation.ts';
import { HANDLER_ENV } from './cold-import.ts';
import { median, percentile, round } from './stats.ts';

export interface StackTiming {
  invocations: number;
  warmup: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  meanMs: number;
  /** DynamoDB commands the stack sent during the measured invocations, by command name. */
  dynamoCalls: Record<string, number>;
}

export interface MiddlewareResult {
  route: string;
  stubbedClient: StackTiming;
  stubbedHttp: StackTiming;
}

const API_KEY = `mk_test_${'A'.repeat(40)}`;
const AGENT_ID = 'agt_01JBENCHBENCHBENCHBENCHBEN'; // a well-formed id: stored items are parsed

/** What a function is told of its remaining time. */
const invocation: Invocation = { remainingMs: () => 10_000 };

async function time(operation: Operation, request: OperationRequest, invocations: number, warmup: number): Promise<Omit<StackTiming, 'dynamoCalls'>> {
  for (let i = 0; i < warmup; i++) {
    const response = await operation.run(request, invocation);
    if (response.status !== 200) throw new Error(`Warm-up answered ${response.status}: ${String(response.body)}`);
  }
  const samples = new Float64Array(invocations);
  for (let i = 0; i < invocations; i++) {
    const started = performance.now();
    const response = await operation.run(request, invocation);
    samples[i] = performance.now() - started;
    if (response.status !== 200) throw new Error(`Invocation answered ${response.status}: ${String(response.body)}`);
  }
  const values = Array.from(samples);
  return {
    invocations,
    warmup,
    p50Ms: round(median(values), 4),
    p90Ms: round(percentile(values, 90), 4),
    p99Ms: round(percentile(values, 99), 4),
    meanMs: round(values.reduce((sum, value) => sum + value, 0) / values.length, 4),
  };
}

function epochMinute(): number {
  return Math.floor(Date.now() / 60_000);
}

export async function measureMiddleware({ invocations = 20_000, warmup = 2_000 } = {}): Promise<MiddlewareResult> {
  // Configuration and the logger level are read at import: set the environment first.
  Object.assign(process.env, HANDLER_ENV, { AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench' });
  const { mockClient } = await import('aws-sdk-client-mock');
  const { GetCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient, dynamoDb } = await import('../shared/data/client.ts');
  const { apiHandler } = await import('../shared/http/handler.ts');
  const { operationRequest } = await import('../lib/local/in-process.ts');
  const { clearApiKeyCache } = await import('../shared/domain/api-key-cache.ts');
  const { route } = await import('../functions/agents/get-me.route.ts'); // apiKey auth, rate limited, GET

  const { operation } = apiHandler(route, () => Promise.resolve({ data: {} }));
  const request = operationRequest(route, route.path, { apiKey: API_KEY, headers: { accept: 'application/json', host: 'api.example' } });
  const keyItem = { agentId: AGENT_ID, role: 'buyer', plan: 'free', environment: 'test', createdAt: '2026-01-01T00:00:00.000Z' };

  // 1. The document client's send() stubbed.
  const mock = mockClient(documentClient);
  mock.on(GetCommand).resolves({ Item: keyItem });
  mock.on(UpdateCommand).callsFake(() => Promise.resolve({ Attributes: { minute: epochMinute(), minuteCount: 1, dayCount: 1 } }));
  clearApiKeyCache();
  const stubbedTiming = await time(operation, request, invocations, warmup);
  const stubbedCalls = {
    GetCommand: mock.commandCalls(GetCommand).length,
    UpdateCommand: mock.commandCalls(UpdateCommand).length,
  };
  // The warm path must still count every request: one UpdateItem per invocation, one key lookup in all.
  if (stubbedCalls.UpdateCommand !== invocations + warmup) {
    throw new Error(`Expected ${invocations + warmup} rate-limit updates, the stub saw ${stubbedCalls.UpdateCommand}`);
  }
  mock.restore();

  // 2. The SDK's whole client-side pipeline, with a canned HTTP answer instead of the network.
  const calls: Record<string, number> = {};
  dynamoDb.middlewareStack.add(
    (next, ctx) => (args) => {
      const name = ctx.commandName ?? 'unknown';
      calls[name] = (calls[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const cannedHandler = {
    handle: (request: { headers: Record<string, string> }) => {
      const target = request.headers['x-amz-target'] ?? '';
      const body = target.endsWith('.GetItem')
        ? json({ Item: { agentId: { S: AGENT_ID }, role: { S: 'buyer' }, plan: { S: 'free' }, environment: { S: 'test' }, createdAt: { S: '2026-01-01T00:00:00.000Z' } } })
        : json({ Attributes: { minute: { N: String(epochMinute()) }, minuteCount: { N: '1' }, dayCount: { N: '1' } } });
      return Promise.resolve({
        response: { statusCode: 200, reason: 'OK', headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'bench' }, body },
      });
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    destroy: () => undefined,
  };
  (dynamoDb.config as unknown as { requestHandler: unknown }).requestHandler = cannedHandler;
  clearApiKeyCache();
  // Fewer invocations: each costs several times more, and the figure is for information only.
  const httpInvocations = Math.round(invocations / 5);
  const httpWarmup = Math.round(warmup / 4);
  const httpTiming = await time(operation, request, httpInvocations, httpWarmup);
  if ((calls.UpdateItemCommand ?? 0) !== httpInvocations + httpWarmup) {
    throw new Error(`Expected every request to reach the SDK's UpdateItem, saw ${JSON.stringify(calls)}`);
  }

  return {
    route: `${route.method} ${route.path}`,
    stubbedClient: { ...stubbedTiming, dynamoCalls: stubbedCalls },
    stubbedHttp: { ...httpTiming, dynamoCalls: calls },
  };
}

if (import.meta.main) {
  const result = await measureMiddleware();
  if (process.send) process.send(result);
  else console.log(JSON.stringify(result, null, 2));
}
