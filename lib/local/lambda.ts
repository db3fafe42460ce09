// Running a function in this process as Lambda would: its module is loaded once (a container's cold
// start), and each invocation calls its `handler` export with the event and a Lambda-shaped context,
// route functions (API Gateway's payload 2.0 events, lambda-events.ts) and workers alike.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from './aws.ts';

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

/** The `handler` export of a function module (a route's or a worker's). */
export async function loadHandler<Event = unknown, Result = unknown>(modulePath: string): Promise<LambdaHandler<Event, Result>> {
  const { handler } = await importModule(modulePath);
  if (typeof handler !== 'function') throw new Error(`${modulePath} does not export a handler function`);
  return handler as LambdaHandler<Event, Result>;
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
