// Worker `houseFulfilment`'s row, beside its handler ./fulfil.worker.ts: a module of its own, so that the CDK stack, the
// local runtime and the index read the row without loading the handler's code
// (docs/decisions/generated-index.md).
import type { WorkerDefinition } from '../../shared/workers.ts';

export const worker: WorkerDefinition = {
  id: 'houseFulfilment',
  handler: 'functions/house/fulfil.worker.ts',
  description: 'Sandbox: the house seller ships its confirmed orders and delivers its shipped ones on the stage’s schedule',
  trigger: { type: 'schedule', everyMinutes: 1 },
  stages: ['test'],
  tableActions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
};
