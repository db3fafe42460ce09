// The local runtime emulates IAM for the table, the feeds bucket (feed files and search snapshots, by
// prefix), the delivery queue and the retry schedules: an invocation may send only the commands its row
// grants, derived as the CDK stack derives them (lib/function-grants.ts). Every end-to-end test runs
// under these checks, so a route or worker whose row misses an action fails there (a 500, with the
// action named in the log), not in AWS.
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../shared/data/client.ts';
import { getFeed } from '../../shared/data/feeds.ts';
import { feedFileSize } from '../../shared/data/feed-files.ts';
import { enqueueDeliveries } from '../../shared/data/delivery-queue.ts';
import { scheduleDelivery } from '../../shared/data/retry-schedules.ts';
import { deleteSnapshotsBefore, downloadSnapshot } from '../../shared/data/search-snapshots.ts';
import { workerGrants, type FunctionGrants } from '../../lib/function-grants.ts';
import { routeList, workers } from '../../functions/registry.ts';
import { startGateway, type Gateway } from '../../lib/local/gateway.ts';
import { AccessDenied, installGrantChecks, runWithGrants } from '../../lib/local/grant-checks.ts';
import { registerAgent, TestClient } from '../support/http-client.ts';
import { newClient } from '../support/runtime.ts';

installGrantChecks();

const grants = (table: string[], feedFiles: string[] = [], more: Partial<FunctionGrants> = {}) =>
  ({ functionName: 'exampleRow', table, feedFiles, searchIndex: [], deliveryQueue: [], retrySchedules: [], ...more }) as FunctionGrants;
const row = (id: string) => workers.find((worker) => worker.id === id)!;
/** A message for a delivery that does not exist: the delivery worker drops it as stale. */
const bogusMessage = { subscriptionId: 'whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR', deliveryId: 'dlv_01JF3Q5Z8X2C7V9B4N6M1K0PQRabcdefgh', attempt: 1 };

describe('grant checks on the data layer’s clients', () => {
  it('lets an invocation send what its row grants, and refuses anything else naming the action and the row', async () => {
    await expect(runWithGrants(grants(['dynamodb:GetItem']), () => getFeed('agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', 'feed_01JF3Q5Z8X2C7V9B4N6M1K0PQR'))).resolves.toBeUndefined();
    const refused = runWithGrants(grants(['dynamodb:Query']), () => getFeed('agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', 'feed_01JF3Q5Z8X2C7V9B4N6M1K0PQR'));
    await expect(refused).rejects.toBeInstanceOf(AccessDenied);
    await expect(refused).rejects.toThrow('exampleRow is not authorized to perform dynamodb:GetItem on the table: its row grants dynamodb:Query there');
  });

  it('checks each item of a transaction against the item’s own action', async () => {
    const transaction = () =>
      documentClient.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName(), Item: { pk: 'GRANTCHECK#1', sk: 'X' } } },
            { ConditionCheck: { TableName: tableName(), Key: { pk: 'GRANTCHECK#2', sk: 'X' }, ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        }),
      );
    await expect(runWithGrants(grants(['dynamodb:PutItem']), transaction)).rejects.toThrow('not authorized to perform dynamodb:ConditionCheckItem');
    await expect(runWithGrants(grants(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']), transaction)).resolves.toBeDefined();
  });

  it('checks feed-file commands against the row’s feed-file actions', async () => {
    await expect(runWithGrants(grants([], []), () => feedFileSize('feeds/none/none/none.csv'))).rejects.toThrow('not authorized to perform s3:GetObject');
    await expect(runWithGrants(grants([], ['s3:GetObject']), () => feedFileSize('feeds/none/none/none.csv'))).resolves.toBeUndefined();
  });

  it('checks search snapshot commands against the row’s search index actions, not its feed-file actions', async () => {
    const list = () => deleteSnapshotsBefore('search-index/000000000000.sqlite');
    const denied = runWithGrants(grants([], ['s3:ListBucket', 's3:GetObject']), list);
    await expect(denied).rejects.toBeInstanceOf(AccessDenied);
    await expect(denied).rejects.toThrow('exampleRow is not authorized to perform s3:ListBucket on search-index/* in the feeds bucket');
    await expect(runWithGrants(grants([], [], { searchIndex: ['s3:ListBucket'] }), list)).resolves.toBeUndefined();
    const download = () => downloadSnapshot('search-index/none.sqlite', '/dev/null');
    await expect(runWithGrants(grants([], ['s3:GetObject']), download)).rejects.toThrow('not authorized to perform s3:GetObject on search-index/*');
    // The snapshot worker's own row may read, list and write them; a row without its searchIndexActions may not.
    await expect(runWithGrants(workerGrants(row('searchIndexSnapshots')), list)).resolves.toBeUndefined();
    await expect(runWithGrants(workerGrants({ ...row('searchIndexSnapshots'), searchIndexActions: undefined }), list)).rejects.toThrow(
      'searchIndexSnapshots is not authorized to perform s3:ListBucket on search-index/* in the feeds bucket: its row grants nothing there (add s3:ListBucket to the row\'s searchIndexActions)',
    );
  });

  it('checks sending to the delivery queue against the row’s sendsDeliveries', async () => {
    const send = () => enqueueDeliveries([bogusMessage]);
    const denied = runWithGrants(workerGrants({ ...row('webhookFanOut'), sendsDeliveries: undefined }), send);
    await expect(denied).rejects.toBeInstanceOf(AccessDenied);
    await expect(denied).rejects.toThrow('webhookFanOut is not authorized to perform sqs:SendMessage on the delivery queue: its row grants nothing there (set sendsDeliveries on the row)');
    await expect(runWithGrants(workerGrants(row('webhookFanOut')), send)).resolves.toBeUndefined();
  });

  it('checks retry schedules against the row’s schedulesDeliveryRetries', async () => {
    const schedule = () => scheduleDelivery({ ...bogusMessage, attempt: 2 }, new Date(Date.now() + 1000));
    const denied = runWithGrants(workerGrants({ ...row('webhookDelivery'), schedulesDeliveryRetries: undefined }), schedule);
    await expect(denied).rejects.toBeInstanceOf(AccessDenied);
    await expect(denied).rejects.toThrow('webhookDelivery is not authorized to perform scheduler:CreateSchedule on the retry schedule group: its row grants nothing there (set schedulesDeliveryRetries on the row)');
    await expect(runWithGrants(workerGrants(row('webhookDelivery')), schedule)).resolves.toBeUndefined();
  });

  it('does not check calls outside an invocation (provisioning, tests)', async () => {
    await expect(getFeed('agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', 'feed_01JF3Q5Z8X2C7V9B4N6M1K0PQR')).resolves.toBeUndefined();
  });
});

describe('a route whose row misses a grant', () => {
  let gateway: Gateway;
  const getProduct = routeList.find((route) => route.operationId === 'getProduct')!;

  beforeAll(async () => {
    // The real handler, under a row that forgot its Query grant.
    gateway = await startGateway({ port: 0, routes: [{ ...getProduct, tableActions: [] }], logError: () => undefined });
  });
  afterAll(() => gateway.stop());

  it('answers 500 internal through the gateway, as the deployed function would fail', async () => {
    const buyer = await registerAgent(newClient(), { role: 'buyer' });
    const response = await new TestClient(gateway.url).get('/v1/products/prd_01JF3Q5Z8X2C7V9B4N6M1K0PQR', { apiKey: buyer.apiKey });
    expect(response.status).toBe(500);
    expect(response.json).toMatchObject({ code: 'internal' });
    // With its grant, the same handler answers normally (404: no such product).
    const granted = await newClient().get('/v1/products/prd_01JF3Q5Z8X2C7V9B4N6M1K0PQR', { apiKey: buyer.apiKey });
    expect(granted.status).toBe(404);
  });
});
