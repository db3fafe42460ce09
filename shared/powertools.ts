// Powertools around every function, API routes and event workers alike, as Middy middlewares: the
// Lambda context in every log line, the handler's trace segment, and the invocation's metrics written
// out at its end (also when a middleware answers early: it calls cleanupMiddlewares).
import { cleanupMiddlewares } from '@aws-lambda-powertools/commons';
import type { MiddlewareObj, Request } from '@middy/core';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { Context } from 'aws-lambda';
import { logger } from './logger.ts';
import { metrics } from './metrics.ts';
import { tracer } from './tracer.ts';

/**
 * Middy's own time-out (an error thrown shortly before Lambda's limit while the handler runs on) is off:
 * a handler cut short may still commit, so answering for it early would be a guess. Lambda's limit ends
 * the invocation as before.
 */
export const MIDDY_OPTIONS = { timeoutEarlyInMillis: 0 } as const;

/** Outermost first: logging context, trace, metrics. */
export function powertoolsMiddlewares<Event, Result>(): MiddlewareObj<Event, Result>[] {
  return [
    injectLambdaContext(logger, { logEvent: false, resetKeys: true }),
    captureLambdaHandler(tracer, { captureResponse: false }),
    logMetrics(metrics),
  ] as MiddlewareObj<Event, Result>[];
}

/** An event worker's Lambda entry point: its own handler(event, context), inside Powertools. */
export function workerHandler<Event, Result>(handle: (event: Event, context: Context) => Promise<Result>) {
  return middy<Event, Result>(handle, MIDDY_OPTIONS).use(powertoolsMiddlewares<Event, Result>());
}

/**
 * For a middleware that answers early (Middy then runs no `after`): the Powertools middlewares end the
 * invocation as their `after` would (metrics written, trace segment closed), then `response` is the answer.
 */
export async function answerEarly<Response>(request: Request, response: Response): Promise<Response> {
  await cleanupMiddlewares(request);
  return response;
}
