// GET /health — readiness: the function runs and the table answers. No key, no rate limit.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';

export const handler = apiHandler(routes.health, async () => {
  await documentClient.send(new GetCommand({ TableName: tableName(), Key: { pk: 'HEALTH', sk: 'HEALTH' } }));
  return { data: { status: 'ok' as const } };
});
