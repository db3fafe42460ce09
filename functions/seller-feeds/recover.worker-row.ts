// Worker `feedRecovery`'s row, beside its handler ./recover.worker.ts: a module of its own, so that
// the CDK stack, the local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'feedRecovery',
  handler: 'functions/seller-feeds/recover.worker.ts',
  description: 'Continues feeds whose run stopped or never started, from their last checkpoint',
  trigger: { type: 'schedule', everyMinutes: 1 },
  tableActions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
  feedFileActions: ['s3:GetObject'],
  timeoutSeconds: 900,
};
