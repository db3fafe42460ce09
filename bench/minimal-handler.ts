// The cold-start baseline (bench/cold-start.ts): a handler that only creates the DynamoDB document
// client at module scope, as shared/data/client.ts does, and answers nothing. Bundled with the same
// options as the route bundles, it is the least any of our functions can cost at init.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });

export const handler = () => Promise.resolve({ statusCode: 204 });
