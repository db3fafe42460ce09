// Worker `searchIndexSnapshots`'s row, beside its handler ./snapshot.worker.ts: a module of its own,
// so that the CDK stack, the local runtime and the index read the row without loading the handler's
// code (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'searchIndexSnapshots',
  handler: 'functions/search/snapshot.worker.ts',
  description: 'Writes a snapshot of the search index to S3 when the log has grown since the last one',
  trigger: { type: 'schedule', everyMinutes: 5 },
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
  searchIndexActions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:ListBucket', 's3:DeleteObject'],
  timeoutSeconds: 900,
};
