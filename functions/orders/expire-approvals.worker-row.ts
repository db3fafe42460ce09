// Worker `orderApprovalExpiry`'s row, beside its handler ./expire-approvals.worker.ts: a module of its
// own, so that the CDK stack, the local runtime and the index read the row without loading the
// handler's code (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'orderApprovalExpiry',
  handler: 'functions/orders/expire-approvals.worker.ts',
  description: 'Declines orders still awaiting approval when their window closes (reason approval_expired), with order.declined; stock and spend released',
  trigger: { type: 'schedule', everyMinutes: 1 },
  tableActions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
};
