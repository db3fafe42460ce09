// Scheduled workers (an EventBridge rule → Lambda in AWS), emulated by the polling loop
// (lib/local/polling-loop.ts): the handler runs once at start, then an interval after each run ends,
// never two runs at once. Locally the interval is at most LOCAL_SCHEDULE_SECONDS (default 5 s), so
// that recovery sweeps act within seconds on a laptop.
import { randomUUID } from 'node:crypto';
import type { ScheduledEvent } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from './aws.ts';
import { lambdaContext, type LambdaHandler } from './lambda.ts';
import { startPollingLoop } from './polling-loop.ts';

export interface ScheduleOptions {
  functionName: string;
  everyMinutes: number;
  timeoutMs: number;
  handler: LambdaHandler<ScheduledEvent, unknown>;
  logError?: (message: string, error?: unknown) => void;
}

export function localScheduleIntervalMs(everyMinutes: number): number {
  const ceiling = Number(process.env.LOCAL_SCHEDULE_SECONDS ?? 5) * 1000;
  return Math.max(100, Math.min(everyMinutes * 60_000, ceiling));
}

export function startSchedule(options: ScheduleOptions): { stop(): Promise<void> } {
  const logError = options.logError ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const interval = localScheduleIntervalMs(options.everyMinutes);

  const run = async () => {
    const event: ScheduledEvent = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: LOCAL_ACCOUNT_ID,
      time: new Date().toISOString(),
      region: LOCAL_REGION,
      resources: [`arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:rule/${options.functionName}`],
      detail: {},
    };
    await options.handler(event, lambdaContext(options.functionName, options.timeoutMs));
  };
  const loop = startPollingLoop({
    step: run,
    nextDelay: () => interval,
    onError: (error) => logError(`[schedule] ${options.functionName} failed:`, error),
  });
  void loop.runNow();

  return { stop: () => loop.stop() };
}
