// CloudWatch Logs subscription filters on the API functions' log groups (→ Lambda), emulated: every
// request record an API function logs in this process (shared/http/middleware/request-log.ts hands it
// over whatever the log level; each matches the worker row's filter pattern by construction) reaches
// the subscribed worker as CloudWatch Logs delivers it, a base64-encoded, gzipped batch of log events
// (`awslogs.data`). The records of one turn of the event loop go together, a moment after their
// responses (CloudWatch Logs batches for a few seconds). Invocations are asynchronous:
// a failed one is retried twice, as Lambda retries asynchronous invocations (after 1 and 2 s here), then
// handed to `deadLetter` (the worker's dead-letter queue).
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { CloudWatchLogsDecodedData, CloudWatchLogsEvent } from 'aws-lambda';
import { onRequestLogged } from '../../shared/http/middleware/request-log.ts';
import type { RequestLogLine } from '../../shared/schemas/requests.ts';
import { LOCAL_ACCOUNT_ID } from './aws.ts';
import { lambdaContext, type LambdaHandler } from './lambda.ts';

/** CloudWatch Logs puts at most this many events in one delivery (1 MB in AWS; records are small). */
const MAX_EVENTS_PER_BATCH = 500;
const RETRY_DELAYS_MS = [1_000, 2_000];

export interface LogSubscriptionOptions {
  functionName: string;
  timeoutMs: number;
  handler: LambdaHandler<CloudWatchLogsEvent, unknown>;
  retryDelaysMs?: readonly number[];
  deadLetter?: (event: CloudWatchLogsEvent, error: unknown, attempts: number) => Promise<void>;
  logError?: (message: string, error?: unknown) => void;
}

/** A batch of request records as CloudWatch Logs hands a subscription's destination one. */
export function logsEvent(records: readonly RequestLogLine[], filterName: string): CloudWatchLogsEvent {
  const now = Date.now();
  const data: CloudWatchLogsDecodedData = {
    owner: LOCAL_ACCOUNT_ID,
    logGroup: '/aws/lambda/local-api',
    logStream: 'local',
    subscriptionFilters: [filterName],
    messageType: 'DATA_MESSAGE',
    logEvents: records.map((record) => ({
      id: randomUUID(),
      timestamp: now,
      // The access-log line as the API function writes it (the writer reads its requestLog field).
      message: JSON.stringify({ level: 'INFO', message: 'request', timestamp: new Date(now).toISOString(), requestId: record.requestId, agentId: record.agentId, status: record.status, requestLog: record }),
    })),
  };
  return { awslogs: { data: gzipSync(JSON.stringify(data)).toString('base64') } };
}

export function startLogSubscription(options: LogSubscriptionOptions): { stop(): Promise<void> } {
  const logError = options.logError ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const retryDelays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  let pending: RequestLogLine[] = [];
  let scheduled = false;
  const inFlight = new Set<Promise<void>>();

  const deliver = async (event: CloudWatchLogsEvent): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await options.handler(event, lambdaContext(options.functionName, options.timeoutMs));
        return;
      } catch (error) {
        if (attempt >= retryDelays.length) {
          logError(`[logs] ${options.functionName} failed ${attempt + 1} times; its batch goes to the dead-letter queue:`, error);
          await options.deadLetter?.(event, error, attempt + 1);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, retryDelays[attempt]));
      }
    }
  };

  const flush = () => {
    scheduled = false;
    while (pending.length > 0) {
      const batch = pending.slice(0, MAX_EVENTS_PER_BATCH);
      pending = pending.slice(batch.length);
      const delivery = deliver(logsEvent(batch, `${options.functionName}-filter`))
        .catch((error: unknown) => logError(`[logs] ${options.functionName}:`, error))
        .finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    }
  };

  const unsubscribe = onRequestLogged((record) => {
    pending.push(record);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });

  return {
    stop: async () => {
      unsubscribe();
      flush();
      await Promise.all(inFlight);
    },
  };
}
