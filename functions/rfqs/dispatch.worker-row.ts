// Worker `rfqDispatch`'s row, beside its handler ./dispatch.worker.ts: a module of its own, so that the CDK stack, the
// local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'rfqDispatch',
  handler: 'functions/rfqs/dispatch.worker.ts',
  description: 'Sends a new request for quotes to its sellers (invited, or matched by their active catalog) with rfq.created; tells them rfq.closed once it is awarded or cancelled',
  trigger: { type: 'stream', entities: ['rfq'], batchSize: 10 },
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
  searchIndexActions: ['s3:GetObject'],
  whenRecordsAreGone: 'nothing is lost: the rfqClosing worker sends on, every minute, every request for quotes whose sellers are still to be found or told',
};
