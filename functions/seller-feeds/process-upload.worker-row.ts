// Worker `feedUploads`'s row, beside its handler ./process-upload.worker.ts: a module of its own, so
// that the CDK stack, the local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'feedUploads',
  handler: 'functions/seller-feeds/process-upload.worker.ts',
  description: 'Processes a seller feed when its file lands in the feeds bucket',
  trigger: { type: 's3', bucket: 'feeds', prefix: 'feeds/' },
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
  feedFileActions: ['s3:GetObject'],
  timeoutSeconds: 900,
};
