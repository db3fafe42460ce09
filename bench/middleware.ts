// The shared middleware stack's own CPU cost per request, warm, with DynamoDB I/O stubbed out.
// Runs in a child process (bench/run.ts forks it) so that its environment, module state and JIT are
// its own: `node bench/middleware.ts` prints the figures as JSON.
//
// Two figures:
// - `stubbedClient`: aws-sdk-client-mock replaces the document client's send(); what remains is the
//   Middy stack itself (Powertools' logger, tracer and metrics middlewares, request context,
//   authenticate with a warm key cache, rate limit, authorize, body, validation, idempotency, the
//   response shaper) around a no-op implementation, called as Lambda calls it: the function's handler
//   export with an API Gateway payload 2.0 event and a Lambda context (lib/local/lambda-events.ts),
//   each built before the clock starts. This is the target figure.
// - `stubbedHttp`: the real SDK pipeline (marshalling, serialisation, endpoint, SigV4 signing,
//   deserialisation) with only the HTTP exchange replaced by a canned answer. For information: what
//   the same request costs once the SDK's own client-side work is counted.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
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

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
/** A fresh event and context per invocation, as Lambda gives them. */
type Invocation = () => [APIGatewayProxyEventV2, Context];

async function time(handler: Handler, invocation: Invocation, invocations: number, warmup: number): Promise<Omit<StackTiming, 'dynamoCalls'>> {
  for (let i = 0; i < warmup; i++) {
    const response = await handler(...invocation());
    if (response.statusCode !== 200) throw new Error(`Warm-up answered ${response.statusCode}: ${String(response.body)}`);
  }
  const samples = new Float64Array(invocations);
  for (let i = 0; i < invocations; i++) {
    const [event, context] = invocation();
    const started = performance.now();
    const response = await handler(event, context);
    samples[i] = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`Invocation answered ${response.statusCode}: ${String(response.body)}`);
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
  const { routeEvent } = await import('../lib/local/lambda-events.ts');
  const { lambdaContext } = await import('../lib/local/lambda.ts');
  const { clearApiKeyCache } = await import('../shared/domain/api-key-cache.ts');
  const { route } = await import('../functions/agents/get-me.route.ts'); // apiKey auth, rate limited, GET

  const handler = apiHandler(route, () => Promise.resolve({ data: {} }));
  const invocation: Invocation = () => [
    routeEvent(route, route.path, { apiKey: API_KEY, headers: { accept: 'application/json', host: 'api.example' } }),
    lambdaContext(route.operationId, 10_000),
  ];
  const keyItem = { agentId: AGENT_ID, role: 'buyer', plan: 'free', environment: 'test', createdAt: '2026-01-01T00:00:00.000Z' };

  // 1. The document client's send() stubbed.
  const mock = mockClient(documentClient);
  mock.on(GetCommand).resolves({ Item: keyItem });
  mock.on(UpdateCommand).callsFake(() => Promise.resolve({ Attributes: { minute: epochMinute(), minuteCount: 1, dayCount: 1 } }));
  clearApiKeyCache();
  const stubbedTiming = await time(handler, invocation, invocations, warmup);
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
  const httpTiming = await time(handler, invocation, httpInvocations, httpWarmup);
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
