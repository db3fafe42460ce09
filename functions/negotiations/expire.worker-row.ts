// Worker `negotiationExpiry`'s row, beside its handler ./expire.worker.ts: a module of its own, so
// that the CDK stack, the local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'negotiationExpiry',
  handler: 'functions/negotiations/expire.worker.ts',
  description: 'Records open negotiation sessions past their expiry as expired, with negotiation.rejected (reason expired)',
  trigger: { type: 'schedule', everyMinutes: 1 },
  tableActions: ['dynamodb:Query', 'dynamodb:PutItem'],
};
