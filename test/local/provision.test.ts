// The resources the runtime provisions, read back through SDK clients configured only by the
// environment (as handlers are), and provisioning a second time changes nothing.
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { hasFailureQueue } from '../../shared/workers.ts';
import { workers } from '../../functions/registry.ts';
import { afterAll, expect, inject, it } from 'vitest';
import { localQueueArn } from '../../lib/local/aws.ts';
import { ensureTable, provisionLocalResources } from '../../lib/local/provision.ts';
import { LOCAL, workerFailureQueueName } from '../../shared/resources.ts';

const env = inject('env');
const dynamodb = new DynamoDBClient({});
const s3 = new S3Client({});
const sqs = new SQSClient({});

afterAll(() => {
  dynamodb.destroy();
  s3.destroy();
  sqs.destroy();
});

it('creates the table with its keys, index, stream and TTL', async () => {
  const { Table: table } = await dynamodb.send(new DescribeTableCommand({ TableName: env.TABLE_NAME }));
  expect(table?.KeySchema).toEqual([
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ]);
  expect(table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  expect(table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.KeySchema?.map((key) => key.AttributeName)])).toEqual([
    ['gsi1', ['gsi1pk', 'gsi1sk']],
    ['gsi2', ['gsi2pk', 'gsi2sk']],
    ['gsi3', ['gsi3pk', 'gsi3sk']],
    ['gsi4', ['gsi4pk', 'gsi4sk']],
  ]);
  expect(table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
  const ttl = await dynamodb.send(new DescribeTimeToLiveCommand({ TableName: env.TABLE_NAME }));
  expect(ttl.TimeToLiveDescription).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expiresAt' });
});

it('creates the feeds bucket, reachable with a default S3 client (path-style through the IP endpoint)', async () => {
  await expect(s3.send(new HeadBucketCommand({ Bucket: env.FEEDS_BUCKET_NAME }))).resolves.toBeDefined();
});

it('gives the delivery queue a dead-letter queue', async () => {
  const { Attributes: attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: env.DELIVERY_QUEUE_URL, AttributeNames: ['All'] }));
  // The consuming worker row's redrive count.
  const consumer = workers.find((worker) => worker.trigger.type === 'sqs')?.trigger as { maxReceiveCount: number; visibilityTimeoutSeconds: number };
  expect(JSON.parse(attributes?.RedrivePolicy ?? '{}')).toEqual({ deadLetterTargetArn: localQueueArn(LOCAL.deliveryDlqName), maxReceiveCount: consumer.maxReceiveCount });
  expect(attributes?.VisibilityTimeout).toBe(String(consumer.visibilityTimeoutSeconds));
  expect(attributes?.QueueArn).toBe(env.DELIVERY_QUEUE_ARN);
});

it('is idempotent, and gives every stream and S3 worker its own dead-letter queue, as the stack does', async () => {
  const again = await provisionLocalResources({ dynamodb: env.AWS_ENDPOINT_URL_DYNAMODB as string, fauxqs: env.AWS_ENDPOINT_URL_SQS as string });
  expect(again).toMatchObject({ tableName: env.TABLE_NAME, deliveryQueueUrl: env.DELIVERY_QUEUE_URL, deliveryQueueArn: env.DELIVERY_QUEUE_ARN });
  expect(Object.keys(again.workerFailureQueueUrls).sort()).toEqual(workers.filter(hasFailureQueue).map((worker) => worker.id).sort());
  for (const [workerId, queueUrl] of Object.entries(again.workerFailureQueueUrls)) {
    const { Attributes: attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }));
    expect(attributes?.QueueArn).toBe(localQueueArn(workerFailureQueueName(LOCAL.stage, workerId)));
    expect(attributes?.MessageRetentionPeriod).toBe(String(14 * 24 * 3600));
  }
});

it.each([
  ['gsi1 only', ['gsi1']],
  ['gsi1 to gsi3 (before the events feed)', ['gsi1', 'gsi2', 'gsi3']],
])('adds the indexes a table made by an older version lacks: %s', async (_, existing) => {
  const TableName = `upgrade-${Date.now()}-${existing.length}`;
  const key = (name: string, type: 'HASH' | 'RANGE') => ({ AttributeName: name, KeyType: type });
  await dynamodb.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: ['pk', 'sk', ...existing.flatMap((name) => [`${name}pk`, `${name}sk`])].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [key('pk', 'HASH'), key('sk', 'RANGE')],
      GlobalSecondaryIndexes: existing.map((name) => ({ IndexName: name, KeySchema: [key(`${name}pk`, 'HASH'), key(`${name}sk`, 'RANGE')], Projection: { ProjectionType: 'ALL' } })),
    }),
  );
  try {
    await ensureTable(dynamodb, TableName);
    const { Table: table } = await dynamodb.send(new DescribeTableCommand({ TableName }));
    expect(table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(['gsi1', 'gsi2', 'gsi3', 'gsi4']);
    // The added index serves queries at once.
    await dynamodb.send(new PutItemCommand({ TableName, Item: { pk: { S: 'EVENT#1' }, sk: { S: 'EVENT' }, gsi4pk: { S: 'BUYER#b#EVENTS' }, gsi4sk: { S: 'evt_1' } } }));
    const found = await dynamodb.send(new QueryCommand({ TableName, IndexName: 'gsi4', KeyConditionExpression: 'gsi4pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'BUYER#b#EVENTS' } } }));
    expect(found.Items?.map((item) => item.pk?.S)).toEqual(['EVENT#1']);
  } finally {
    await dynamodb.send(new DeleteTableCommand({ TableName }));
  }
});
