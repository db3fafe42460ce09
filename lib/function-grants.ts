// What a route or worker function may do, derived once from its row: the CDK stack turns this into the
// function's IAM statements (lib/marketplace-api.ts, lib/event-workers.ts, lib/feed-file-grants.ts,
// lib/webhook-delivery.ts), and the local runtime checks every AWS call of an invocation against it
// (lib/local/grant-checks.ts). One derivation, so a grant missing from a row fails locally as in AWS.
import { tableActionsFor, type RouteDefinition } from '../shared/http/route-table.ts';
import type { FeedFileAction, SearchIndexAction, TableAction } from '../shared/resources.ts';
import type { WorkerDefinition } from '../shared/workers.ts';

/** Sending to the webhook delivery queue (SendMessageBatch needs sqs:SendMessage too). */
export const DELIVERY_QUEUE_ACTIONS = ['sqs:SendMessage'] as const;
/** One-off retry schedules in the stack's schedule group (plus iam:PassRole of the scheduler role, AWS only). */
export const RETRY_SCHEDULE_ACTIONS = ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'] as const;

export type DeliveryQueueAction = (typeof DELIVERY_QUEUE_ACTIONS)[number];
export type RetryScheduleAction = (typeof RETRY_SCHEDULE_ACTIONS)[number];

export interface FunctionGrants {
  /** The route's operationId or the worker's id. */
  functionName: string;
  /** On the table (and its indexes when Query is among them). */
  table: readonly TableAction[];
  /** On the feeds bucket's `feeds/` objects (ListBucket: on the bucket, for that prefix). */
  feedFiles: readonly FeedFileAction[];
  /** On the feeds bucket's `search-index/` objects (ListBucket: on the bucket, for that prefix). */
  searchIndex: readonly SearchIndexAction[];
  /** On the webhook delivery queue. */
  deliveryQueue: readonly DeliveryQueueAction[];
  /** On the schedules of the stack's schedule group. */
  retrySchedules: readonly RetryScheduleAction[];
}

export function routeGrants(route: RouteDefinition): FunctionGrants {
  return {
    functionName: route.operationId,
    table: tableActionsFor(route),
    feedFiles: route.feedFileActions ?? [],
    searchIndex: route.searchIndexActions ?? [],
    deliveryQueue: route.sendsDeliveries ? DELIVERY_QUEUE_ACTIONS : [],
    retrySchedules: [],
  };
}

/** A worker's row grants; an S3-triggered worker may also read the files that trigger it. */
export function workerGrants(worker: WorkerDefinition): FunctionGrants {
  const feedFiles = new Set<FeedFileAction>(worker.feedFileActions ?? []);
  if (worker.trigger.type === 's3') feedFiles.add('s3:GetObject');
  return {
    functionName: worker.id,
    table: worker.tableActions,
    feedFiles: [...feedFiles],
    searchIndex: worker.searchIndexActions ?? [],
    deliveryQueue: worker.sendsDeliveries ? DELIVERY_QUEUE_ACTIONS : [],
    retrySchedules: worker.schedulesDeliveryRetries ? RETRY_SCHEDULE_ACTIONS : [],
  };
}

/** The grants without the function's name: equal descriptions may share a role (lib/function-roles.ts). */
export function grantsDescription(grants: FunctionGrants): Record<string, readonly string[]> {
  const { functionName: _functionName, ...actions } = grants;
  return actions;
}
