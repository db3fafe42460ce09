// The worker table: functions triggered by events rather than HTTP. Like the route table, it is the
// single source for the CDK stack (event source mappings, S3 notifications) and the local runtime
// (its emulated S3 notifications and SQS pollers). Later issues add rows: feed processing (s3),
// webhook delivery (sqs).
import type { FeedFileAction, SearchIndexAction, TableAction } from './resources.ts';

export type WorkerTrigger =
  | { type: 's3'; bucket: 'feeds'; prefix: string }
  /** Runs every `everyMinutes` (an EventBridge schedule; locally a timer, at most every 5 s). */
  | { type: 'schedule'; everyMinutes: number }
  /**
   * Records of the table's stream whose new image is an item of one of `entities` (in AWS an event
   * source mapping with a filter; locally the runtime reads DynamoDB Local's stream).
   */
  | { type: 'stream'; entities: readonly string[]; batchSize: number }
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
  tableActions: readonly TableAction[];
  feedFileActions?: readonly FeedFileAction[];
  searchIndexActions?: readonly SearchIndexAction[];
  /** Puts webhook delivery messages on the delivery queue. */
  sendsDeliveries?: boolean;
  /** Creates one-off EventBridge Scheduler schedules that put delivery retries on the queue. */
  schedulesDeliveryRetries?: boolean;
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
  return worker.trigger.type === 'stream' || worker.trigger.type === 's3';
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
  if (trigger.type === 'stream') return 60;
  return Math.max(1, Math.floor(trigger.visibilityTimeoutSeconds / 6));
}

export const workers: readonly WorkerDefinition[] = [
  {
    id: 'feedUploads',
    handler: 'functions/seller-feeds/process-upload.worker.ts',
    description: 'Processes a seller feed when its file lands in the feeds bucket',
    trigger: { type: 's3', bucket: 'feeds', prefix: 'feeds/' },
    tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
    feedFileActions: ['s3:GetObject'],
    timeoutSeconds: 900,
  },
  {
    id: 'feedRecovery',
    handler: 'functions/seller-feeds/recover.worker.ts',
    description: 'Continues feeds whose run stopped or never started, from their last checkpoint',
    trigger: { type: 'schedule', everyMinutes: 1 },
    tableActions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
    feedFileActions: ['s3:GetObject'],
    timeoutSeconds: 900,
  },
  {
    id: 'negotiationExpiry',
    handler: 'functions/negotiations/expire.worker.ts',
    description: 'Records open negotiation sessions past their expiry as expired, with negotiation.rejected (reason expired)',
    trigger: { type: 'schedule', everyMinutes: 1 },
    tableActions: ['dynamodb:Query', 'dynamodb:PutItem'],
  },
  {
    id: 'orderApprovalExpiry',
    handler: 'functions/orders/expire-approvals.worker.ts',
    description: 'Declines orders still awaiting approval when their window closes (reason approval_expired), with order.declined; stock and spend released',
    trigger: { type: 'schedule', everyMinutes: 1 },
    tableActions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  },
  {
    id: 'rfqDispatch',
    handler: 'functions/rfqs/dispatch.worker.ts',
    description: 'Sends a new request for quotes to its sellers (invited, or matched by their active catalog) with rfq.created; tells them rfq.closed once it is awarded or cancelled',
    trigger: { type: 'stream', entities: ['rfq'], batchSize: 10 },
    tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
    searchIndexActions: ['s3:GetObject'],
    whenRecordsAreGone: 'nothing is lost: the rfqClosing worker sends on, every minute, every request for quotes whose sellers are still to be found or told',
  },
  {
    id: 'rfqClosing',
    handler: 'functions/rfqs/close.worker.ts',
    description: 'Closes open requests for quotes at closesAt, with rfq.closed to the buyer; sends on dispatch work the stream missed',
    trigger: { type: 'schedule', everyMinutes: 1 },
    tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
    searchIndexActions: ['s3:GetObject'],
  },
  {
    id: 'webhookFanOut',
    handler: 'functions/webhooks/fan-out.worker.ts',
    description: 'Turns new events from the table stream into one queued delivery per matching active subscription',
    trigger: { type: 'stream', entities: ['event'], batchSize: 100 },
    tableActions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    sendsDeliveries: true,
    whenRecordsAreGone: 'nothing is lost: the webhookSweep worker fans out every event still in the outbox, every minute',
  },
  {
    id: 'webhookDelivery',
    handler: 'functions/webhooks/deliver.worker.ts',
    description: 'Sends the signed webhook POSTs a batch of queued deliveries names, records the attempts, schedules the retries',
    // One lane per subscription, lanes at once; a lane starts no attempt after 2 s and each has 10 s.
    // Visibility covers a batch and its records.
    trigger: { type: 'sqs', queue: 'delivery', batchSize: 10, maxReceiveCount: 10, visibilityTimeoutSeconds: 120, maxConcurrency: 5 },
    tableActions: ['dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
    sendsDeliveries: true,
    schedulesDeliveryRetries: true,
  },
  {
    id: 'webhookSweep',
    handler: 'functions/webhooks/sweep.worker.ts',
    description: 'Fans out events the stream missed and queues again deliveries whose attempt is overdue',
    trigger: { type: 'schedule', everyMinutes: 1 },
    tableActions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    sendsDeliveries: true,
  },
  {
    id: 'searchIndexChanges',
    handler: 'functions/search/index-changes.worker.ts',
    description: 'Appends product and offer changes from the table stream to the search index log',
    trigger: { type: 'stream', entities: ['product', 'offer'], batchSize: 500 },
    tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
    whenRecordsAreGone: 'run `npm run admin -- rebuild-search-log`: it appends every product and offer of the table to the search log',
  },
  {
    id: 'searchIndexSnapshots',
    handler: 'functions/search/snapshot.worker.ts',
    description: 'Writes a snapshot of the search index to S3 when the log has grown since the last one',
    trigger: { type: 'schedule', everyMinutes: 5 },
    tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    searchIndexActions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:ListBucket', 's3:DeleteObject'],
    timeoutSeconds: 900,
  },
];
