// Worker `requestLogWriter`'s row, beside its handler ./record.worker.ts: a module of its own, so that the CDK stack, the
// local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'requestLogWriter',
  handler: 'functions/requests/record.worker.ts',
  description: 'Stores the request records of the API functions’ access-log lines in their callers’ request logs (GET /v1/requests)',
  trigger: { type: 'logs', filterPattern: '{ $.requestLog.agentId = "agt_*" }' },
  tableActions: ['dynamodb:BatchWriteItem'],
};
