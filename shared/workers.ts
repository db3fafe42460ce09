// The worker table: functions triggered by events rather than HTTP. Like the route table, it is the
// single source for the CDK stack (event source mappings, S3 notifications) and the local runtime
// (its emulated S3 notifications and SQS pollers). Later issues add rows: feed processing (s3),
// webhook delivery (sqs).
import type { TableAction } from './resources.ts';

export type WorkerTrigger =
  | { type: 's3'; bucket: 'feeds'; prefix: string }
  | {
      type: 'sqs';
      queue: 'delivery';
      batchSize: number;
      /** Receives before a message moves to the queue's dead-letter queue. */
      maxReceiveCount: number;
      visibilityTimeoutSeconds: number;
    };

export interface WorkerDefinition {
  id: string;
  /** Module (relative to the repository root) whose `handler` export processes the events. */
  handler: string;
  description: string;
  trigger: WorkerTrigger;
  tableActions: readonly TableAction[];
}

export const workers: readonly WorkerDefinition[] = [];
