// Webhook subscriptions live in their agent's partition: listing them is one Query, and another
// agent's subscription is simply not found. The agent's webhookCount, changed in the same transaction
// as each create and delete, holds the 20-per-agent limit.
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookSubscription } from '../schemas/webhooks.ts';
import { MAX_SUBSCRIPTIONS_PER_AGENT } from '../schemas/webhooks.ts';
import { agentKeys } from './agents.ts';
import { documentClient, tableName } from './client.ts';
import { setChangedFields } from './expressions.ts';
import { failedTransactionConditions, isConditionFailure } from './conditions.ts';

export const webhookKeys = {
  subscription: (agentId: string, webhookId: string) => ({ pk: `AGENT#${agentId}`, sk: `WEBHOOK#${webhookId}` }),
  /** Key condition for all of an agent's subscriptions. */
  byAgent: (agentId: string) => ({ pk: `AGENT#${agentId}`, skPrefix: 'WEBHOOK#' }),
};

export interface WebhookSubscriptionItem extends WebhookSubscription {
  agentId: string;
  /** Signs deliveries, so it is kept (encrypted at rest by DynamoDB) and never returned by the API. */
  secret: string;
}

export function toSubscription(item: WebhookSubscriptionItem): WebhookSubscription {
  const { id, url, events, description, active, createdAt, updatedAt } = item;
  return { id, url, events, description: description ?? null, active, createdAt, updatedAt };
}

export type CreateOutcome = { created: true } | { created: false; reason: 'limit' | 'no-agent' };

export async function createSubscription(item: WebhookSubscriptionItem): Promise<CreateOutcome> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: agentKeys.agent(item.agentId),
              UpdateExpression: 'SET webhookCount = if_not_exists(webhookCount, :zero) + :one',
              ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(webhookCount) OR webhookCount < :max)',
              ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': MAX_SUBSCRIPTIONS_PER_AGENT },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...webhookKeys.subscription(item.agentId, item.id), entity: 'webhookSubscription', ...item },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    return { created: true };
  } catch (error) {
    const failed = failedTransactionConditions(error);
    if (failed.has(0)) return { created: false, reason: failed.get(0) ? 'limit' : 'no-agent' };
    throw error;
  }
}

export async function getSubscription(agentId: string, webhookId: string): Promise<WebhookSubscriptionItem | undefined> {
  const result = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.subscription(agentId, webhookId) }),
  );
  return result.Item as WebhookSubscriptionItem | undefined;
}

export async function listSubscriptions(
  agentId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<{ items: WebhookSubscriptionItem[]; lastKey: Record<string, unknown> | undefined }> {
  const { pk, skPrefix } = webhookKeys.byAgent(agentId);
  const result = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ScanIndexForward: false, // ULIDs sort by time: newest first
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: (result.Items ?? []) as WebhookSubscriptionItem[], lastKey: result.LastEvaluatedKey };
}

export type SubscriptionChanges = Partial<Pick<WebhookSubscriptionItem, 'url' | 'events' | 'secret' | 'active'>> & {
  description?: string | null;
};

export async function updateSubscription(
  agentId: string,
  webhookId: string,
  changes: SubscriptionChanges,
  now: string,
): Promise<WebhookSubscriptionItem | undefined> {
  try {
    const result = await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookKeys.subscription(agentId, webhookId),
        ...setChangedFields(changes, now),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes as WebhookSubscriptionItem;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Deletes the subscription and gives its slot back; false when it does not exist. */
export async function deleteSubscription(agentId: string, webhookId: string): Promise<boolean> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: webhookKeys.subscription(agentId, webhookId),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: agentKeys.agent(agentId),
              UpdateExpression: 'SET webhookCount = webhookCount - :one',
              ConditionExpression: 'webhookCount > :zero',
              ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    failedTransactionConditions(error);
    return false;
  }
}
