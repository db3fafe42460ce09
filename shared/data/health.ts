// Readiness: one GetItem of a key that never exists proves the table answers and the role may read it.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { send, tableName } from './client.ts';

export async function checkTableReachable(): Promise<void> {
  await send(new GetCommand({ TableName: tableName(), Key: { pk: 'HEALTH', sk: 'HEALTH' } }));
}
