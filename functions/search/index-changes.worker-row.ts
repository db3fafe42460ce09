// Worker `searchIndexChanges`'s row, beside its handler ./index-changes.worker.ts: a module of its
// own, so that the CDK stack, the local runtime and the index read the row without loading the
// handler's code (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'searchIndexChanges',
  handler: 'functions/search/index-changes.worker.ts',
  description: 'Appends product and offer changes from the table stream to the search index log',
  trigger: { type: 'stream', entities: ['product', 'offer'], batchSize: 500 },
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
  whenRecordsAreGone: 'run `npm run admin -- rebuild-search-log`: it appends every product and offer of the table to the search log',
};
