// Creates the local stack's resources, or brings existing ones up to date: safe on every start.
// Shapes come from the same definitions the CDK stack uses (table definition, worker table).
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GLOBAL_SECONDARY_INDEXES, TABLE_KEYS } from '../../shared/data/table-definition.ts';
import { LOCAL, workerFailureQueueName } from '../../shared/resources.ts';
import { workers } from '../../functions/registry.ts';
import { hasFailureQueue, type WorkerTrigger } from '../../shared/workers.ts';
import { localClientConfig, localQueueArn, localQueueUrl } from './aws.ts';

/** Lambda's and SQS's defaults, used while no worker consumes the delivery queue. */
const DEFAULT_MAX_RECEIVE_COUNT = 5;
const DEFAULT_VISIBILITY_TIMEOUT_SECONDS = 30;

export interface ProvisionedResources {
  tableName: string;
  feedsBucketName: string;
  deliveryQueueUrl: string;
  deliveryQueueArn: string;
  deliveryDlqUrl: string;
  deliveryDlqArn: string;
  /** Stream and S3 workers' own dead-letter queues, by worker id (as the CDK stack creates them). */
  workerFailureQueueUrls: Record<string, string>;
}

const indexSchema = (index: (typeof GLOBAL_SECONDARY_INDEXES)[number]) => ({
  IndexName: index.indexName,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'ALL' as const },
});

/** How long an index added to an existing table may take to build (its backfill) before start gives up. */
const INDEX_BUILD_TIMEOUT_MS = 60_000;

/** Waits until every index of the table is ACTIVE: DynamoDB Local fails writes naming a new index's keys while it is still CREATING. */
async function waitForActiveIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + INDEX_BUILD_TIMEOUT_MS;
  for (;;) {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const building = (table?.GlobalSecondaryIndexes ?? []).filter((index) => index.IndexStatus !== 'ACTIVE').map((index) => index.IndexName);
    if (building.length === 0) return;
    if (Date.now() > deadline) throw new Error(`Index ${building.join(', ')} of ${tableName} is still being built after ${INDEX_BUILD_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A table made by an older version lacks indexes added since: create them one at a time, as DynamoDB
 * requires, each built (ACTIVE) before the next and before anything writes to the table.
 */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, existing: readonly string[]): Promise<void> {
  for (const index of GLOBAL_SECONDARY_INDEXES) {
    if (existing.includes(index.indexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: index.partitionKey, AttributeType: 'S' },
          { AttributeName: index.sortKey, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [{ Create: indexSchema(index) }],
      }),
    );
    await waitForActiveIndexes(client, tableName);
  }
}

export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(client, tableName, (described.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName ?? ''));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    const keyAttributes = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...GLOBAL_SECONDARY_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey])];
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: GLOBAL_SECONDARY_INDEXES.map(indexSchema),
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      }),
    );
  }
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
      }),
    );
  }
}

async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}

/** The delivery queue's settings: the consuming worker's, or the defaults. */
function deliveryQueueSettings() {
  const trigger = workers
    .map((worker) => worker.trigger)
    .find((candidate): candidate is Extract<WorkerTrigger, { type: 'sqs' }> => candidate.type === 'sqs' && candidate.queue === 'delivery');
  return {
    maxReceiveCount: trigger?.maxReceiveCount ?? DEFAULT_MAX_RECEIVE_COUNT,
    visibilityTimeoutSeconds: trigger?.visibilityTimeoutSeconds ?? DEFAULT_VISIBILITY_TIMEOUT_SECONDS,
  };
}

/** Creates the queue if needed, then sets its attributes, so that changed settings apply to an existing queue. */
async function ensureQueue(client: SQSClient, fauxqsEndpoint: string, queueName: string, attributes: Record<string, string>) {
  await client.send(new CreateQueueCommand({ QueueName: queueName }));
  const queueUrl = localQueueUrl(fauxqsEndpoint, queueName);
  if (Object.keys(attributes).length > 0) await client.send(new SetQueueAttributesCommand({ QueueUrl: queueUrl, Attributes: attributes }));
  return { queueUrl, queueArn: localQueueArn(queueName) };
}

export async function provisionLocalResources(endpoints: { dynamodb: string; fauxqs: string }): Promise<ProvisionedResources> {
  const dynamodb = new DynamoDBClient(localClientConfig(endpoints.dynamodb));
  const s3 = new S3Client(localClientConfig(endpoints.fauxqs));
  const sqs = new SQSClient(localClientConfig(endpoints.fauxqs));
  try {
    const settings = deliveryQueueSettings();
    const [, , dlq] = await Promise.all([
      ensureTable(dynamodb, LOCAL.tableName),
      ensureBucket(s3, LOCAL.feedsBucketName),
      ensureQueue(sqs, endpoints.fauxqs, LOCAL.deliveryDlqName, { MessageRetentionPeriod: String(14 * 24 * 3600) }),
    ]);
    const failureQueues = await Promise.all(
      workers
        .filter(hasFailureQueue)
        .map(async (worker) => [worker.id, (await ensureQueue(sqs, endpoints.fauxqs, workerFailureQueueName(LOCAL.stage, worker.id), { MessageRetentionPeriod: String(14 * 24 * 3600) })).queueUrl] as const),
    );
    const queue = await ensureQueue(sqs, endpoints.fauxqs, LOCAL.deliveryQueueName, {
      VisibilityTimeout: String(settings.visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: settings.maxReceiveCount }),
    });
    return {
      tableName: LOCAL.tableName,
      feedsBucketName: LOCAL.feedsBucketName,
      deliveryQueueUrl: queue.queueUrl,
      deliveryQueueArn: queue.queueArn,
      deliveryDlqUrl: dlq.queueUrl,
      deliveryDlqArn: dlq.queueArn,
      workerFailureQueueUrls: Object.fromEntries(failureQueues),
    };
  } finally {
    dynamodb.destroy();
    s3.destroy();
    sqs.destroy();
  }
}
