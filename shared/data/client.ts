// DynamoDB clients at module scope, created once per container. Endpoints come from the standard
// AWS_ENDPOINT_URL_DYNAMODB variable, which the local runtime points at DynamoDB Local.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

export const dynamoDb = new DynamoDBClient({});

export const documentClient = DynamoDBDocumentClient.from(dynamoDb, {
  marshallOptions: { removeUndefinedValues: true },
});

export function tableName(): string {
  return config().TABLE_NAME;
}
