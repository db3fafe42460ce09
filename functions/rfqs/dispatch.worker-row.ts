// Worker `rfqDispatch`'s row, beside its handler ./dispatch.worker.ts: a module of its own, so that the CDK stack, the
// local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'rfqDispatch',
  handler: 'functions/rfqs/dispatch.worker.ts',
  description: 'Sends a new request for quotes to its sellers (invited, or matched by their active catalog) with rfq.created; tells them rfq.closed once it is awarded or cancelled',
  trigger: { type: 'stream', entities: ['rfq'], batchSize: 10 },
  // Each seller's rfq.created (its recipient record) in batches; the sellers sent it or told, from the RFQ's index partitions.
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'],
  searchIndexActions: ['s3:GetObject'],
  // Matching reads the RFQ's words as search does (spelling variants, typos).
  bundledFiles: ['search-words.json'],
  whenRecordsAreGone: 'nothing is lost: the rfqClosing worker sends on, every minute, every request for quotes whose sellers are still to be found or told',
};
