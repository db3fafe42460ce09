// Running a function in this process as Lambda would: its module is loaded once (a container's cold
// start), and each invocation calls its `handler` export with the event and a Lambda-shaped context,
// route functions (API Gateway's payload 2.0 events, lambda-events.ts) and workers alike.
//
// Unlike Lambda on demand, this process runs many invocations at once, of many functions, all sharing
// one Powertools Logger (and Metrics). It therefore runs them as Lambda Managed Instances' Node.js
// runtime does: each invocation inside its own context of AWS's InvokeStore (an AsyncLocalStorage),
// with AWS_LAMBDA_MAX_CONCURRENCY set (CONCURRENT_INVOCATIONS_ENV, which the runtime applies), which is
// what tells Powertools 2.x to keep each invocation's Lambda context, keys, log level and metrics in
// that store. Every log line then names the function and request that wrote it
// (docs/decisions/local-invocation-context.md). Deployed functions run one invocation per environment
// and set neither.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from './aws.ts';

/**
 * Set where handlers run (runtime.ts), before they load: Powertools scopes its state to the invocation
 * only when this variable is set (it reads no value from it; Lambda's own default for Node.js is 64
 * per vCPU, and no limit is enforced here).
 */
export const CONCURRENT_INVOCATIONS_ENV = { AWS_LAMBDA_MAX_CONCURRENCY: '64' } as const;

// The store Powertools and the AWS SDK read (globalThis.awslambda.InvokeStore), backed by an
// AsyncLocalStorage whatever the environment says when it is made: made at import, before any SDK
// call of this process could make the one-context-at-a-time kind instead.
const invokeStore = await InvokeStore.getInstanceAsync(true);

export type LambdaHandler<Event = unknown, Result = unknown> = (event: Event, context: Context) => Promise<Result>;

/** The repository root: handler paths in the route and worker tables are relative to it. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

const modules = new Map<string, Promise<{ handler?: unknown }>>();

/** A repository-relative module, imported on first use and cached (a container's cold start). */
function importModule(modulePath: string): Promise<{ handler?: unknown }> {
  let loaded = modules.get(modulePath);
  if (!loaded) {
    loaded = import(pathToFileURL(resolve(REPO_ROOT, modulePath)).href) as Promise<{ handler?: unknown }>;
    modules.set(modulePath, loaded);
  }
  return loaded;
}

/**
 * The `handler` export of a function module (a route's or a worker's), as the runtime invokes it: each
 * call in an invocation context of its own, named by the context's request id.
 */
export async function loadHandler<Event = unknown, Result = unknown>(modulePath: string): Promise<LambdaHandler<Event, Result>> {
  const { handler } = await importModule(modulePath);
  if (typeof handler !== 'function') throw new Error(`${modulePath} does not export a handler function`);
  const exported = handler as LambdaHandler<Event, Result>;
  return (event, context) => invokeStore.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, () => exported(event, context));
}

const MEMORY_MB = '1024';

/** A fresh invocation context; `timeoutMs` drives getRemainingTimeInMillis. */
export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: MEMORY_MB,
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
