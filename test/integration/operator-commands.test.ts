// The operator command against a deployed stack (`--stage test|live`), which cannot reach AWS from
// here: the AWS clients are mocked, so the tests see exactly which table, queues, stream and function
// the command would use, and how AWS's refusals reach the operator.
import { BatchGetItemCommand, DynamoDBClient, ResourceNotFoundException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, TrimmedDataAccessException } from '@aws-sdk/client-dynamodb-streams';
import { InvokeCommand, LambdaClient, type InvokeCommandOutput } from '@aws-sdk/client-lambda';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config.ts';
import { documentClient } from '../../shared/data/client.ts';
import { runOperatorCommand } from '../../lib/operator-commands.ts';
import { streamFailureRecord } from '../../lib/worker-failure-records.ts';

const mock = mockClient(documentClient);
const savedEnv = { ...process.env };
const AGENT_ID = 'agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR';

function agentItem(overrides: Record<string, unknown> = {}) {
  return {
    pk: `AGENT#${AGENT_ID}`,
    sk: 'AGENT',
    entity: 'agent',
    agentId: AGENT_ID,
    role: 'seller',
    name: 'Seller bot',
    organization: { legalName: 'Acme GmbH', country: 'DE' },
    contactEmail: 'ops@acme.example',
    plan: 'free',
    environment: 'live',
    apiKeyPrefix: 'mk_live_abcd',
    apiKeyHash: 'a'.repeat(64),
    webhookCount: 0,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOperatorCommand(args, { log: (line) => out.push(line), error: (line) => err.push(line) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

beforeEach(() => mock.reset());
afterEach(() => {
  process.env = { ...savedEnv };
  resetConfig();
});
afterAll(() => mock.restore());

describe('npm run admin -- … --stage', () => {
  it('set-plan changes the plan on the profile, its main key item and its live restricted keys in the live table, in one transaction', async () => {
    mock.on(GetCommand).resolves({ Item: agentItem({ restrictedKeyCount: 1 }) });
    const restricted = (keyId: string, hash: string, extra: Record<string, unknown> = {}) => ({
      pk: `AGENT#${AGENT_ID}`, sk: `KEY#${keyId}`, entity: 'restrictedKey', keyId, agentId: AGENT_ID, name: 'Bot', apiKeyPrefix: 'mk_live_abcd', apiKeyHash: hash,
      scopes: ['catalog:read'], limits: null, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z', holdsSlot: true, ...extra,
    });
    mock.on(QueryCommand).resolves({
      Items: [
        restricted('key_01M83TE1B0R4W9D2Y7C6K5H3JN', 'c'.repeat(64)),
        restricted('key_01M83TE1B0R4W9D2Y7C6K5H3JM', 'd'.repeat(64), { revokedAt: '2026-11-02T00:00:00.000Z', holdsSlot: false }),
        restricted('key_01M83TE1B0R4W9D2Y7C6K5H3JK', 'e'.repeat(64), { expiresAt: '2026-11-02T00:00:00.000Z' }),
      ],
    });
    mock.on(TransactWriteCommand).resolves({});
    const result = await run('set-plan', AGENT_ID, 'enterprise', '--stage', 'live');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${AGENT_ID} is now on the enterprise plan`);
    const [read] = mock.commandCalls(GetCommand);
    expect(read!.args[0].input).toMatchObject({ TableName: 'agent-marketplace-live', Key: { pk: `AGENT#${AGENT_ID}`, sk: 'AGENT' }, ConsistentRead: true });
    const [write] = mock.commandCalls(TransactWriteCommand);
    const items = write!.args[0].input.TransactItems!;
    expect(items.map((item) => item.Update?.TableName)).toEqual(['agent-marketplace-live', 'agent-marketplace-live', 'agent-marketplace-live']);
    // Conditional on the key hash and the restricted key count it read.
    const update = items[0]!.Update!;
    const values = Object.values(update.ExpressionAttributeValues!);
    expect(Object.values(update.ExpressionAttributeNames!)).toEqual(expect.arrayContaining(['apiKeyHash', 'restrictedKeyCount']));
    expect(values).toEqual(expect.arrayContaining([agentItem().apiKeyHash, 1]));
    expect(items[1]!.Update!.Key).toEqual({ pk: `APIKEY#${'a'.repeat(64)}`, sk: 'APIKEY' });
    // The live restricted key's hash item too; not the revoked or the expired one.
    expect(items[2]!.Update!.Key).toEqual({ pk: `APIKEY#${'c'.repeat(64)}`, sk: 'APIKEY' });
  });

  it('replace-key swaps the key in the sandbox table and prints a sandbox key once', async () => {
    mock.on(GetCommand).resolves({ Item: agentItem({ environment: 'test', apiKeyPrefix: 'mk_test_abcd' }) });
    mock.on(TransactWriteCommand).resolves({});
    const result = await run('replace-key', AGENT_ID, '--stage', 'test');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/mk_test_[0-9A-Za-z]{40}/);
    const items = mock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.every((item) => (item.Update ?? item.Delete ?? item.Put)!.TableName === 'agent-marketplace-test')).toBe(true);
    expect(items[1]!.Delete!.Key).toEqual({ pk: `APIKEY#${'a'.repeat(64)}`, sk: 'APIKEY' });
  });

  it('replace-key retries when a rotation races it, and says so when the agent does not exist', async () => {
    mock.on(GetCommand).resolvesOnce({ Item: agentItem() }).resolvesOnce({ Item: agentItem() }).resolves({ Item: agentItem({ apiKeyHash: 'b'.repeat(64) }) });
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(
        new TransactionCanceledException({
          message: 'cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }],
        }),
      )
      .resolves({});
    const result = await run('replace-key', AGENT_ID, '--stage', 'live');
    expect(result.code, result.stderr).toBe(0);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(2);
    expect(mock.commandCalls(TransactWriteCommand)[1]!.args[0].input.TransactItems![1]!.Delete!.Key).toEqual({
      pk: `APIKEY#${'b'.repeat(64)}`,
      sk: 'APIKEY',
    });

    mock.reset();
    mock.on(GetCommand).resolves({});
    const missing = await run('replace-key', AGENT_ID, '--stage', 'live');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`No agent ${AGENT_ID}.`);
  });

  it.each([
    [new ResourceNotFoundException({ message: 'Requested resource not found', $metadata: {} }), 'does not exist: is the stack deployed'],
    [Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }), 'No AWS credentials'],
    [Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException' }), 'check the credentials'],
  ])('explains %s to the operator, with exit code 1', async (error, explanation) => {
    mock.on(GetCommand).rejects(error);
    const result = await run('set-plan', AGENT_ID, 'pro', '--stage', 'live');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(explanation);
    expect(result.stderr).toContain('agent-marketplace-live');
  });

  it('refuses a bad stage, a bad id and a bad plan before calling AWS', async () => {
    expect((await run('set-plan', AGENT_ID, 'pro', '--stage', 'prod')).stderr).toContain('--stage must be test or live');
    expect((await run('set-plan', 'agt_x', 'pro', '--stage', 'live')).stderr).toContain('An agent id');
    expect((await run('set-plan', AGENT_ID, 'gold', '--stage', 'live')).stderr).toContain('The plan must be');
    expect(mock.calls()).toHaveLength(0);
  });
});

describe('npm run admin -- replay-dead-letters … --stage', () => {
  const sqs = mockClient(SQSClient);
  const streams = mockClient(DynamoDBStreamsClient);
  const dynamodb = mockClient(DynamoDBClient);
  const lambda = mockClient(LambdaClient);
  const functionArn = 'arn:aws:lambda:eu-west-1:123456789012:function:AgentMarketplace-live-WorkerssearchIndexChanges-AbC';
  const streamArn = 'arn:aws:dynamodb:eu-west-1:123456789012:table/agent-marketplace-live/stream/2026-11-01T00:00:00.000';
  const failureRecord = streamFailureRecord(functionArn, { shardId: 'shardId-1', streamArn, first: { sequenceNumber: '100' }, last: { sequenceNumber: '100' }, size: 1 }, 11);
  const productKey = { pk: { S: 'CATALOG#agt_1#LAMP-1' }, sk: { S: 'PRODUCT' } };
  const currentProduct = { ...productKey, entity: { S: 'product' }, title: { S: 'Brass desk lamp (current)' } };

  beforeEach(() => {
    for (const client of [sqs, streams, dynamodb, lambda]) client.reset();
    sqs.on(GetQueueUrlCommand).callsFake((input: { QueueName: string }) => Promise.resolve({ QueueUrl: `https://sqs.eu-west-1.amazonaws.com/123456789012/${input.QueueName}` }));
    sqs.on(ReceiveMessageCommand).resolvesOnce({ Messages: [{ MessageId: 'm1', ReceiptHandle: 'r1', Body: JSON.stringify(failureRecord) }] }).resolves({});
    streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it-1' });
    streams.on(GetRecordsCommand).resolves({
      Records: [
        { dynamodb: { SequenceNumber: '100', Keys: productKey, NewImage: { ...productKey, entity: { S: 'product' }, title: { S: 'Brass desk lamp (old)' } } } },
        { dynamodb: { SequenceNumber: '101', Keys: productKey, NewImage: { ...productKey, entity: { S: 'product' } } } },
      ],
      NextShardIterator: 'it-2',
    });
    dynamodb.on(BatchGetItemCommand).resolves({ Responses: { 'agent-marketplace-live': [currentProduct] } });
  });
  afterAll(() => {
    for (const client of [sqs, streams, dynamodb, lambda]) client.restore();
  });

  it('reads the failed records back from the stream, invokes the worker’s function with their current items, and deletes the letter', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200 });
    const result = await run('replay-dead-letters', 'searchIndexChanges', '--stage', 'live');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('searchIndexChanges: 1 dead letter replayed.');
    expect(sqs.commandCalls(ReceiveMessageCommand)[0]!.args[0].input.QueueUrl).toBe('https://sqs.eu-west-1.amazonaws.com/123456789012/agent-marketplace-live-searchIndexChanges-failures');
    expect(streams.commandCalls(GetShardIteratorCommand)[0]!.args[0].input).toMatchObject({ StreamArn: streamArn, ShardId: 'shardId-1', ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: '100' });
    expect(dynamodb.commandCalls(BatchGetItemCommand)[0]!.args[0].input.RequestItems).toEqual({ 'agent-marketplace-live': { Keys: [productKey], ConsistentRead: true } });
    const invoked = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(invoked.FunctionName).toBe(functionArn);
    const event = JSON.parse(Buffer.from(invoked.Payload as Uint8Array).toString('utf8'));
    expect(event.Records.map((record: any) => record.dynamodb.NewImage.title.S)).toEqual(['Brass desk lamp (current)']);
    expect(sqs.commandCalls(DeleteMessageCommand).map((call) => call.args[0].input.ReceiptHandle)).toEqual(['r1']);
  });

  it('keeps a letter whose replay fails again, visible for the next run, and exits 1', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, FunctionError: 'Unhandled', Payload: Buffer.from('{"errorMessage":"still broken"}') as unknown as InvokeCommandOutput['Payload'] });
    const result = await run('replay-dead-letters', 'searchIndexChanges', '--stage', 'live');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('still broken');
    expect(result.stdout).toContain('1 failed again and stay in agent-marketplace-live-searchIndexChanges-failures');
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({ ReceiptHandle: 'r1', VisibilityTimeout: 0 }),
    ]);
  });

  it('removes a letter whose records have left the stream, and says what recovers them', async () => {
    streams.on(GetShardIteratorCommand).rejects(new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));
    const result = await run('replay-dead-letters', 'searchIndexChanges', '--stage', 'live');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('1 named records that have left the stream (older than 24 h) and were removed: run `npm run admin -- rebuild-search-log`');
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(1);
  });

  it('sends the delivery queue’s dead letters back to the delivery queue', async () => {
    sqs.on(ReceiveMessageCommand).resolvesOnce({ Messages: [{ MessageId: 'd1', ReceiptHandle: 'rd1', Body: '{"deliveryId":"dlv_1"}' }] }).resolves({});
    const result = await run('replay-dead-letters', 'webhookDelivery', '--stage', 'live');
    expect(result.code, result.stderr).toBe(0);
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/agent-marketplace-live-webhook-delivery', MessageBody: '{"deliveryId":"dlv_1"}' },
    ]);
    expect(sqs.commandCalls(DeleteMessageCommand)[0]!.args[0].input).toMatchObject({ QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/agent-marketplace-live-webhook-delivery-dlq', ReceiptHandle: 'rd1' });
  });
});
