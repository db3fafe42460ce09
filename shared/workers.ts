// The shape of a worker row: a function triggered by events rather than HTTP. Each row is a module
// beside its handler (functions/<resource>/<name>.worker-row.ts beside <name>.worker.ts); the index
// generated from those files (functions/registry.ts) is, as for routes, the single source for the CDK
// stack (event source mappings, S3 notifications, schedules) and the local runtime (its emulated S3
// notifications, SQS pollers, stream readers and schedules).
import type { BundledFile, FeedFileAction, SearchIndexAction, Stage, TableAction } from './resources.ts';

export type WorkerTrigger =
  | { type: 's3'; bucket: 'feeds'; prefix: string }
  /** Runs every `everyMinutes` (an EventBridge schedule; locally a timer, at most every 5 s). */
  | { type: 'schedule'; everyMinutes: number }
  /**
   * Records of the table's stream whose new image is an item of one of `entities` (in AWS an event
   * source mapping with a filter; locally the runtime reads DynamoDB Local's stream).
   */
  | { type: 'stream'; entities: readonly string[]; batchSize: number }
  /**
   * The API functions' access-log lines that match `filterPattern` (a CloudWatch Logs subscription filter
   * on each API function's log group; locally the runtime hands each request record over as it is
   * logged, whatever the log level).
   */
  | { type: 'logs'; filterPattern: string }
  /**
   * Runs once per deploy of the stack (a CloudFormation custom resource whose service token is the
   * function, answered at its response URL) and once per start of the local runtime, before it serves.
   */
  | { type: 'deploy' }
  | {
      type: 'sqs';
      queue: 'delivery';
      batchSize: number;
      /** Receives before a message moves to the queue's dead-letter queue. */
      maxReceiveCount: number;
      visibilityTimeoutSeconds: number;
      /** Batches handled at once (the event source mapping's maximum concurrency; locally, parallel pollers). */
      maxConcurrency: number;
    };

/**
 * A stream batch that fails is halved until its failing record is alone, and that record is retried
 * this many times before it is skipped (the event source mapping's bisectBatchOnError and
 * retryAttempts; the local stream reader does the same): one bad record cannot stop a worker for good.
 */
export const STREAM_RETRY_ATTEMPTS = 10;

export interface WorkerDefinition {
  id: string;
  /** Module (relative to the repository root) whose `handler` export processes the events. */
  handler: string;
  description: string;
  trigger: WorkerTrigger;
  /** The stages the worker runs in; default both. The sandbox's house agents: `['test']` (the local runtime is a sandbox). */
  stages?: readonly Stage[];
  tableActions: readonly TableAction[];
  feedFileActions?: readonly FeedFileAction[];
  searchIndexActions?: readonly SearchIndexAction[];
  /** Puts webhook delivery messages on the delivery queue. */
  sendsDeliveries?: boolean;
  /** Creates one-off EventBridge Scheduler schedules that put delivery retries on the queue. */
  schedulesDeliveryRetries?: boolean;
  /** Files built at synth and shipped beside the bundle (the local runtime builds them at start). */
  bundledFiles?: readonly BundledFile[];
  /** Lambda timeout; defaults by trigger (S3 workers 15 min, SQS a sixth of the visibility timeout). */
  timeoutSeconds?: number;
  /**
   * Stream rows: what recovers the changes of dead-lettered records once they have left the stream
   * (24 h), when replaying them is no longer possible. The replay command says it to the operator.
   */
  whenRecordsAreGone?: string;
}

/**
 * The worker's own dead-letter queue, where its event source puts what failed every attempt: a stream
 * batch's failure record (a record retried STREAM_RETRY_ATTEMPTS times), or an S3 notification's
 * failed asynchronous invocation (after Lambda's 2 retries). SQS rows use their queue's dead-letter
 * queue instead; scheduled rows have none (the next run does the work). Replay:
 * `npm run admin -- replay-dead-letters <worker id>`.
 */
export function hasFailureQueue(worker: WorkerDefinition): boolean {
  return worker.trigger.type === 'stream' || worker.trigger.type === 's3' || worker.trigger.type === 'logs';
}

/** Lambda retries a failed asynchronous invocation (an S3 notification) this many times, then dead-letters it. */
export const ASYNC_RETRY_ATTEMPTS = 2;

/**
 * Lambda's timeout for a worker, for the CDK stack and the local runtime alike: its row's, else by
 * trigger. Feed files run to 100 MB, so an S3 worker gets Lambda's longest run; a schedule five
 * intervals (at most 15 minutes); an SQS consumer a sixth of the queue's visibility timeout, as AWS
 * advises, so that a message is not redelivered while a throttled or retried batch still runs.
 */
export function workerTimeoutSeconds(worker: WorkerDefinition): number {
  if (worker.timeoutSeconds) return worker.timeoutSeconds;
  const { trigger } = worker;
  if (trigger.type === 's3') return 15 * 60;
  if (trigger.type === 'schedule') return Math.min(15, trigger.everyMinutes * 5) * 60;
  if (trigger.type === 'stream' || trigger.type === 'logs') return 60;
  if (trigger.type === 'deploy') return 300;
  return Math.max(1, Math.floor(trigger.visibilityTimeoutSeconds / 6));
}
