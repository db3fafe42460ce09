// Running a function in this process as Lambda would: its module is loaded once (a container's cold
// start); a worker's handler gets each invocation with a Lambda-shaped context, a route's operation
// gets the plain request (lib/local/in-process.ts).
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import type { Operation } from '../../shared/http/operation.ts';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from './aws.ts';

export type LambdaHandler<Event = unknown, Result = unknown> = (event: Event, context: Context) => Promise<Result>;

/** The repository root: handler paths in the route and worker tables are relative to it. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

const modules = new Map<string, Promise<LambdaHandler>>();

async function importHandler(modulePath: string): Promise<LambdaHandler> {
  const loaded = (await import(pathToFileURL(resolve(REPO_ROOT, modulePath)).href)) as { handler?: unknown };
  if (typeof loaded.handler !== 'function') throw new Error(`${modulePath} does not export a handler function`);
  return loaded.handler as LambdaHandler;
}

/** The `handler` export of a repository-relative module, imported on first use and cached. */
export function loadHandler(modulePath: string): Promise<LambdaHandler> {
  let handler = modules.get(modulePath);
  if (!handler) {
    handler = importHandler(modulePath);
    modules.set(modulePath, handler);
  }
  return handler;
}

/** What the gateway calls: the operation a route function's `handler` export carries. */
export type RouteOperation = Pick<Operation, 'run'>;

const operations = new Map<string, Promise<RouteOperation>>();

/** The operation of a repository-relative route module (its `handler.operation`), imported on first use and cached. */
export function loadOperation(modulePath: string): Promise<RouteOperation> {
  let operation = operations.get(modulePath);
  if (!operation) {
    operation = import(pathToFileURL(resolve(REPO_ROOT, modulePath)).href).then((loaded: { handler?: { operation?: RouteOperation } }) => {
      if (typeof loaded.handler?.operation?.run !== 'function') throw new Error(`${modulePath} does not export a handler carrying its operation (apiHandler)`);
      return loaded.handler.operation;
    });
    operations.set(modulePath, operation);
  }
  return operation;
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
