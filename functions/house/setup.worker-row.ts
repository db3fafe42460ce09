// Worker `houseSetup`'s row, beside its handler ./setup.worker.ts: a module of its own, so that the CDK stack, the
// local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'houseSetup',
  handler: 'functions/house/setup.worker.ts',
  description: 'Sandbox: creates the house agents (Sandbox Supply Co. and the house buyers) and loads the house catalog when it changed, at every deploy and start',
  trigger: { type: 'deploy' },
  stages: ['test'],
  bundledFiles: ['house-catalog.json'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
};
