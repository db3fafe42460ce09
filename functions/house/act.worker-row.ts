// Worker `houseAgents`'s row, beside its handler ./act.worker.ts: a module of its own, so that the CDK stack, the
// local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'houseAgents',
  handler: 'functions/house/act.worker.ts',
  description: 'Sandbox: the house seller confirms its new orders and answers negotiations and quotes on the requests for quotes it is sent; the house buyers answer asks by their strategies, order and complete',
  trigger: { type: 'stream', entities: ['event'], batchSize: 100 },
  stages: ['test'],
  // Quoting on a request for quotes reads the offer's product (Query) and writes the quote in a transaction.
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
  // Its best matching offer for a request is found in the search index, as for a seller's agent.
  searchIndexActions: ['s3:GetObject'],
  // ...read with the RFQ's words as search reads them.
  bundledFiles: ['search-words.json'],
  whenRecordsAreGone: 'nothing to replay: a house order left pending can be moved with POST /v1/test-helpers/orders/{id}/advance, a negotiation waits for its expiry',
};
