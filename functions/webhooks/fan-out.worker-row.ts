// Worker `webhookFanOut`'s row, beside its handler ./fan-out.worker.ts: a module of its own, so that
// the CDK stack, the local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'webhookFanOut',
  handler: 'functions/webhooks/fan-out.worker.ts',
  description: 'Turns new events from the table stream into one queued delivery per matching active subscription',
  trigger: { type: 'stream', entities: ['event'], batchSize: 100 },
  tableActions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  sendsDeliveries: true,
  whenRecordsAreGone: 'nothing is lost: the webhookSweep worker fans out every event still in the outbox, every minute',
};
