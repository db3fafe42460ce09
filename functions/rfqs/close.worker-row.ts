// Worker `rfqClosing`'s row, beside its handler ./close.worker.ts: a module of its own, so that the CDK stack, the
// local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'rfqClosing',
  handler: 'functions/rfqs/close.worker.ts',
  description: 'Closes open requests for quotes at closesAt, with rfq.closed to the buyer; sends on dispatch work the stream missed',
  trigger: { type: 'schedule', everyMinutes: 1 },
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'],
  searchIndexActions: ['s3:GetObject'],
  // Sending on a missed dispatch matches as rfqDispatch does.
  bundledFiles: ['search-words.json'],
};
