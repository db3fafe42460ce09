// Worker `webhookSweep`'s row, beside its handler ./sweep.worker.ts: a module of its own, so that the
// CDK stack, the local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'webhookSweep',
  handler: 'functions/webhooks/sweep.worker.ts',
  description: 'Fans out events the stream missed and queues again deliveries whose attempt is overdue',
  trigger: { type: 'schedule', everyMinutes: 1 },
  tableActions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  sendsDeliveries: true,
};
