// Faults DynamoDB Local cannot produce — throttling, transaction collisions, internal errors,
// timeouts — injected with aws-sdk-client-mock at each step a request depends on: before the handler
// (the key lookup, the rate-limit counter, the idempotency claim), inside it (every transaction) and
// after it (recording the outcome under the Idempotency-Key). Everything else passes through to
// DynamoDB Local, so the tests can check what was (not) written: a fault before or inside the handler
// must end in the contract's error, with the idempotency claim released and nothing half-written; a
// fault after it must still answer the real result and never let the same key run the work again.
import { DynamoDBClient, InternalServerError, ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COLLISION_ATTEMPTS, documentClient, tableName } from '../../shared/data/client.ts';
import { clearApiKeyCache } from '../../shared/domain/api-key-cache.ts';
import { hashApiKey } from '../../shared/domain/api-keys.ts';
import { registerAgent as register } from '../../shared/domain/agents.ts';
import { handler as registerHandler } from '../../functions/agents/register.ts';
import { handler as getMeHandler } from '../../functions/agents/get-me.ts';
import { handler as rotateHandler } from '../../functions/agents/rotate-key.ts';
import { handler as createWebhookHandler } from '../../functions/webhooks/create.ts';
import { handler as deleteWebhookHandler } from '../../functions/webhooks/delete.ts';
import { handler as testWebhookHandler } from '../../functions/webhooks/test.ts';
import { IdempotencyRecordEntity, IN_PROGRESS_LEASE_SECONDS } from '../../shared/data/idempotency-records.ts';
import { invoke } from '../support/invoke.ts';

const real = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
const mock = mockClient(documentClient);
const COMMANDS = [GetCommand, PutCommand, UpdateCommand, DeleteCommand, QueryCommand, TransactWriteCommand] as const;
type AnyCommand = (typeof COMMANDS)[number];
type Input = Record<string, any>;

/** Every command passes through to DynamoDB Local, except where a fault is installed. */
function passThrough(): void {
  mock.reset();
  for (const Command of COMMANDS) mock.on(Command as any).callsFake((input: Input) => real.send(new (Command as any)(input)));
}

/** Makes `Command` fail with `error()` whenever `when(input)` holds; other calls still pass through. */
function fault(Command: AnyCommand, when: (input: Input) => boolean, error: () => Error): { hits: () => number } {
  let hits = 0;
  mock.on(Command as any).callsFake((input: Input) => {
    if (when(input)) {
      hits += 1;
      return Promise.reject(error());
    }
    return real.send(new (Command as any)(input));
  });
  return { hits: () => hits };
}

const meta = { $metadata: {} };
const FAULTS = {
  throttled: () => new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds the allowed throughput', ...meta }),
  throttling: () => Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }),
  internal: () => new InternalServerError({ message: 'Internal server error', ...meta }),
  timeout: () => Object.assign(new Error('Connection timed out after 1000 ms'), { name: 'TimeoutError' }),
};
const transactionConflict = (count: number, at: number) => () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
    CancellationReasons: Array.from({ length: count }, (_, index) => ({ Code: index === at ? 'TransactionConflict' : 'None' })),
    ...meta,
  });

const pkStarts = (prefix: string) => (input: Input) => String(input.Key?.pk ?? input.Item?.pk ?? '').startsWith(prefix);
const isTransaction = () => true;

let ip = 0;
const sourceIp = () => `198.18.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

function registration() {
  return { name: 'Fault test', role: 'seller', organization: { legalName: 'Acme', country: 'DE' }, contactEmail: 'faults@acme.example' };
}

async function readItem(key: { pk: string; sk: string }) {
  return (await real.send(new GetCommand({ TableName: tableName(), Key: key }))).Item;
}

async function seller() {
  return register({ ...registration(), role: 'seller' }, new Date());
}

function expectContractError(response: { status: number; json: any; headers: Record<string, string> }, status: number, code: string) {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  expect(response.json).toMatchObject({ code, status, requestId: response.headers['x-request-id'] });
  expect(typeof response.json.error).toBe('string');
  expect(JSON.stringify(response.json)).not.toMatch(/Exception|stack|at .*\.ts/);
}

beforeEach(() => {
  passThrough();
  clearApiKeyCache();
});
afterAll(() => mock.restore());

describe('before the handler: the key lookup fails', () => {
  it.each([
    ['throttled', 429, 'rate-limit', FAULTS.throttled],
    ['throttling', 429, 'rate-limit', FAULTS.throttling],
    ['internal error', 500, 'internal', FAULTS.internal],
    ['timeout', 500, 'internal', FAULTS.timeout],
  ] as const)('%s → %i %s, and the next request works', async (_name, status, code, error) => {
    const { apiKey } = await seller();
    const lookup = fault(GetCommand, pkStarts('APIKEY#'), error);
    const response = await invoke(getMeHandler, '/v1/agents/me', { apiKey, sourceIp: sourceIp() });
    expect(lookup.hits()).toBe(1);
    expectContractError(response, status, code);
    if (status === 429) expect(response.headers['retry-after']).toBe('1');
    passThrough();
    expect((await invoke(getMeHandler, '/v1/agents/me', { apiKey, sourceIp: sourceIp() })).status).toBe(200);
  });
});

describe('before the handler: the rate-limit counter fails', () => {
  it.each([
    ['throttled', 429, 'rate-limit', FAULTS.throttled],
    ['internal error', 500, 'internal', FAULTS.internal],
    ['timeout', 500, 'internal', FAULTS.timeout],
  ] as const)('%s → %i %s, before the handler runs', async (_name, status, code, error) => {
    const { agent, apiKey } = await seller();
    const counter = fault(UpdateCommand, pkStarts('RATELIMIT#'), error);
    const response = await invoke(
      createWebhookHandler,
      '/v1/webhooks', { apiKey, sourceIp: sourceIp(), body: { url: 'https://a.example/h', events: ['*'], secret: 'sixteen-chars-ok' } },
    );
    expect(counter.hits()).toBeGreaterThanOrEqual(1);
    expectContractError(response, status, code);
    expect((await readItem({ pk: `AGENT#${agent.agentId}`, sk: 'AGENT' }))?.webhookCount).toBe(0);
  });
});

describe('before the handler: the idempotency claim fails', () => {
  it.each([
    ['throttled', 429, 'rate-limit', FAULTS.throttled],
    ['internal error', 500, 'internal', FAULTS.internal],
    ['timeout', 500, 'internal', FAULTS.timeout],
  ] as const)('%s → %i %s; nothing was registered and the same key works on retry', async (_name, status, code, error) => {
    const ip = sourceIp();
    const headers = { 'idempotency-key': `claim-${status}-${Math.random()}` };
    const claimFault = fault(PutCommand, pkStarts('IDEMPOTENCY#'), error);
    const transactions = mock.commandCalls(TransactWriteCommand).length;
    const response = await invoke(registerHandler, '/v1/agents/register', { sourceIp: ip, headers, body: registration() });
    expect(claimFault.hits()).toBe(1);
    expectContractError(response, status, code);
    expect(mock.commandCalls(TransactWriteCommand).length).toBe(transactions); // the handler never ran
    passThrough();
    const retried = await invoke(registerHandler, '/v1/agents/register', { sourceIp: ip, headers, body: registration() });
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('inside the handler: a transaction fails', () => {
  it.each([
    ['collides with another transaction', 409, 'conflict', transactionConflict(2, 1)],
    ['is throttled', 429, 'rate-limit', FAULTS.throttled],
    ['hits an internal error', 500, 'internal', FAULTS.internal],
    ['times out', 500, 'internal', FAULTS.timeout],
  ] as const)('registration %s → %i %s; neither profile nor key exists, and the claim is released', async (_name, status, code, error) => {
    const ip = sourceIp();
    const headers = { 'idempotency-key': `register-${status}-${Math.random()}` };
    const transaction = fault(TransactWriteCommand, isTransaction, error);
    const response = await invoke(registerHandler, '/v1/agents/register', { sourceIp: ip, headers, body: registration() });
    // A collided transaction changed nothing, so it is sent again before the collision is answered.
    expect(transaction.hits()).toBe(code === 'conflict' ? COLLISION_ATTEMPTS : 1);
    expectContractError(response, status, code);
    if (code === 'conflict') expect(response.headers['retry-after']).toBe('1');
    const attempted = mock.commandCalls(TransactWriteCommand).at(-1)!.args[0].input.TransactItems!;
    for (const item of attempted) expect(await readItem({ pk: item.Put!.Item!.pk, sk: item.Put!.Item!.sk })).toBeUndefined();

    passThrough();
    const retried = await invoke(registerHandler, '/v1/agents/register', { sourceIp: ip, headers, body: registration() });
    expect(retried.status).toBe(201); // ran again: the failed attempt stored nothing under the key
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const replayed = await invoke(registerHandler, '/v1/agents/register', { sourceIp: ip, headers, body: registration() });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });

  it.each([
    ['collides with another transaction', 409, 'conflict', transactionConflict(2, 0)],
    ['is throttled', 429, 'rate-limit', FAULTS.throttled],
    ['hits an internal error', 500, 'internal', FAULTS.internal],
  ] as const)('creating a webhook %s → %i %s; no subscription, the slot count unchanged', async (_name, status, code, error) => {
    const { agent, apiKey } = await seller();
    const headers = { 'idempotency-key': `hook-${status}-${Math.random()}` };
    const body = { url: 'https://a.example/h', events: ['*'], secret: 'sixteen-chars-ok' };
    fault(TransactWriteCommand, isTransaction, error);
    const response = await invoke(createWebhookHandler, '/v1/webhooks', { apiKey, sourceIp: sourceIp(), headers, body });
    expectContractError(response, status, code);
    const stored = await real.send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk AND begins_with(sk, :w)', ExpressionAttributeValues: { ':pk': `AGENT#${agent.agentId}`, ':w': 'WEBHOOK#' } }),
    );
    expect(stored.Items).toEqual([]);
    expect((await readItem({ pk: `AGENT#${agent.agentId}`, sk: 'AGENT' }))?.webhookCount).toBe(0);
    passThrough();
    const retried = await invoke(createWebhookHandler, '/v1/webhooks', { apiKey, sourceIp: sourceIp(), headers, body });
    expect(retried.status).toBe(201);
    expect((await readItem({ pk: `AGENT#${agent.agentId}`, sk: 'AGENT' }))?.webhookCount).toBe(1);
  });

  it('creating a webhook right after a collision that clears → 201 at once: one subscription, one slot', async () => {
    const { agent, apiKey } = await seller();
    let collisions = 0;
    let sent = 0;
    mock.on(TransactWriteCommand).callsFake((input: Input) => {
      sent += 1;
      if (collisions < COLLISION_ATTEMPTS - 1) {
        collisions += 1;
        return Promise.reject(transactionConflict(2, 0)());
      }
      return real.send(new TransactWriteCommand(input as any));
    });
    const body = { url: 'https://a.example/h', events: ['*'], secret: 'sixteen-chars-ok' };
    const response = await invoke(createWebhookHandler, '/v1/webhooks', { apiKey, sourceIp: sourceIp(), body });
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    expect(collisions).toBe(COLLISION_ATTEMPTS - 1);
    expect(sent).toBe(COLLISION_ATTEMPTS);
    expect((await readItem({ pk: `AGENT#${agent.agentId}`, sk: 'AGENT' }))?.webhookCount).toBe(1);
  });

  it('deleting a webhook is throttled → 429; the subscription and its slot stay', async () => {
    const { agent, apiKey } = await seller();
    const created = await invoke(
      createWebhookHandler,
      '/v1/webhooks', { apiKey, sourceIp: sourceIp(), body: { url: 'https://a.example/h', events: ['*'], secret: 'sixteen-chars-ok' } },
    );
    const id = created.json.data.id as string;
    fault(TransactWriteCommand, isTransaction, FAULTS.throttled);
    const response = await invoke(deleteWebhookHandler, `/v1/webhooks/${id}`, { apiKey, sourceIp: sourceIp() });
    expectContractError(response, 429, 'rate-limit');
    expect(await readItem({ pk: `AGENT#${agent.agentId}`, sk: `WEBHOOK#${id}` })).toBeDefined();
    expect((await readItem({ pk: `AGENT#${agent.agentId}`, sk: 'AGENT' }))?.webhookCount).toBe(1);
  });

  it.each([
    ['collides with another transaction', 409, 'conflict', transactionConflict(3, 0)],
    ['hits an internal error', 500, 'internal', FAULTS.internal],
    ['times out', 500, 'internal', FAULTS.timeout],
  ] as const)('rotating a key %s → %i %s; the old key still works and no new key exists', async (_name, status, code, error) => {
    const { agent, apiKey } = await seller();
    fault(TransactWriteCommand, isTransaction, error);
    const response = await invoke(rotateHandler, '/v1/agents/me/rotate-key', { apiKey, sourceIp: sourceIp() });
    expectContractError(response, status, code);
    const attempted = mock.commandCalls(TransactWriteCommand).at(-1)!.args[0].input.TransactItems!;
    const newKeyItem = attempted.find((item) => item.Put)!.Put!.Item!;
    expect(await readItem({ pk: newKeyItem.pk, sk: newKeyItem.sk })).toBeUndefined();
    expect((await readItem({ pk: `AGENT#${agent.agentId}`, sk: 'AGENT' }))?.apiKeyHash).toBe(hashApiKey(apiKey));
    passThrough();
    clearApiKeyCache();
    expect((await invoke(getMeHandler, '/v1/agents/me', { apiKey, sourceIp: sourceIp() })).status).toBe(200);
  });
});

describe('after the handler: recording the outcome under the Idempotency-Key fails', () => {
  const isIdempotency = pkStarts('IDEMPOTENCY#');
  /** The write that stores the response (the completion), not the claim, the release or the committed mark. */
  const storesResponse = (input: Input) => isIdempotency(input) && Object.values(input.ExpressionAttributeNames ?? {}).includes('response');
  const hook = { url: 'https://a.example/h', events: ['*'], secret: 'sixteen-chars-ok' };

  async function subscriptionsOf(agentId: string) {
    const stored = await real.send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk AND begins_with(sk, :w)', ExpressionAttributeValues: { ':pk': `AGENT#${agentId}`, ':w': 'WEBHOOK#' } }),
    );
    return (stored.Items ?? []).map((item) => item.id as string);
  }

  async function claimOf(agentId: string, key: string) {
    return readItem(IdempotencyRecordEntity.key({ scope: agentId, idempotencyKey: key }));
  }

  afterEach(() => vi.useRealTimers());

  /** Moves the clock past the claim's lease (Date only: timers and the SDK's sockets keep real time). */
  function afterTheLease(): void {
    const later = Date.now() + (IN_PROGRESS_LEASE_SECONDS + 5) * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(later);
  }

  it('a throttled completion is retried: the client gets the real 201, and a retry with the key replays it', async () => {
    const { agent, apiKey } = await seller();
    const headers = { 'idempotency-key': `after-once-${Math.random()}` };
    let throttled = 0;
    mock.on(UpdateCommand).callsFake((input: Input) => {
      if (storesResponse(input) && throttled === 0) {
        throttled += 1;
        return Promise.reject(FAULTS.throttled());
      }
      return real.send(new UpdateCommand(input as any));
    });
    const response = await invoke(createWebhookHandler, '/v1/webhooks', { apiKey, sourceIp: sourceIp(), headers, body: hook });
    expect(throttled).toBe(1);
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    expect(await subscriptionsOf(agent.agentId)).toEqual([response.json.data.id]);

    const replayed = await invoke(createWebhookHandler, '/v1/webhooks', { apiKey, sourceIp: sourceIp(), headers, body: hook });
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json.data).toEqual(response.json.data);
    expect((await readItem({ pk: `AGENT#${agent.agentId}`, sk: 'AGENT' }))?.webhookCount).toBe(1);
  });

  it.each([
    ['throttled', FAULTS.throttled],
    ['failing with an internal error', FAULTS.internal],
    ['timing out', FAULTS.timeout],
  ] as const)('the completion keeps %s: the client gets the real 201, and the key never runs the work again, at once or after the lease', async (_name, error) => {
    const { agent, apiKey } = await seller();
    const key = `after-always-${Math.random()}`;
    const request = () => ['/v1/webhooks', { apiKey, sourceIp: sourceIp(), headers: { 'idempotency-key': key }, body: hook }] as const;
    const completion = fault(UpdateCommand, storesResponse, error);

    const response = await invoke(createWebhookHandler, ...request());
    expect(completion.hits()).toBeGreaterThan(1); // retried within the request
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    expect(response.json.data).toMatchObject({ url: hook.url, events: ['*'] });
    expect(await subscriptionsOf(agent.agentId)).toEqual([response.json.data.id]);
    expect(await claimOf(agent.agentId, key)).toMatchObject({ status: 'committed' });

    const atOnce = await invoke(createWebhookHandler, ...request());
    expectContractError(atOnce, 409, 'idempotency/conflict');
    expect(atOnce.json.error).toContain('will not run again');

    passThrough();
    afterTheLease();
    const later = await invoke(createWebhookHandler, ...request());
    expectContractError(later, 409, 'idempotency/conflict');
    expect(await subscriptionsOf(agent.agentId)).toEqual([response.json.data.id]);
    expect((await readItem({ pk: `AGENT#${agent.agentId}`, sk: 'AGENT' }))?.webhookCount).toBe(1);
  });

  it('when no write to the record gets through, the claim is left to its lease, never released', async () => {
    const { agent, apiKey } = await seller();
    const key = `after-nothing-${Math.random()}`;
    const request = () => ['/v1/webhooks', { apiKey, sourceIp: sourceIp(), headers: { 'idempotency-key': key }, body: hook }] as const;
    fault(UpdateCommand, isIdempotency, FAULTS.throttled);
    fault(DeleteCommand, isIdempotency, FAULTS.throttled);

    const response = await invoke(createWebhookHandler, ...request());
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    expect(await claimOf(agent.agentId, key)).toMatchObject({ status: 'in_progress' });
    const atOnce = await invoke(createWebhookHandler, ...request());
    expectContractError(atOnce, 409, 'idempotency/conflict');
    expect(atOnce.json.error).toContain('still being processed');
    expect(await subscriptionsOf(agent.agentId)).toEqual([response.json.data.id]);
  });

  it('a handler error (404) whose outcome cannot be stored is still answered in the contract’s shape, and the claim released', async () => {
    const { apiKey } = await seller();
    const id = 'whk_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
    const options = { apiKey, sourceIp: sourceIp(), headers: { 'idempotency-key': `after-404-${Math.random()}` } };
    const completion = fault(UpdateCommand, storesResponse, FAULTS.throttled);
    const response = await invoke(testWebhookHandler, `/v1/webhooks/${id}/test`, options);
    expect(completion.hits()).toBe(1);
    expectContractError(response, 404, 'not-found');
    passThrough();
    const retried = await invoke(testWebhookHandler, `/v1/webhooks/${id}/test`, options); // nothing was committed: it runs again
    expectContractError(retried, 404, 'not-found');
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });
});
