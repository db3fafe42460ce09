// Worker `webhookDelivery`'s row, beside its handler ./deliver.worker.ts: a module of its own, so that
// the CDK stack, the local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'webhookDelivery',
  handler: 'functions/webhooks/deliver.worker.ts',
  description: 'Sends the signed webhook POSTs a batch of queued deliveries names, records the attempts, schedules the retries, tracks each subscription’s health (disabling one that has failed for 5 days)',
  // One lane per subscription, lanes at once; a lane starts no attempt after 2 s and each has 10 s.
  // Visibility covers a batch and its records.
  trigger: { type: 'sqs', queue: 'delivery', batchSize: 10, maxReceiveCount: 10, visibilityTimeoutSeconds: 120, maxConcurrency: 5 },
  tableActions: ['dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  sendsDeliveries: true,
  schedulesDeliveryRetries: true,
};
