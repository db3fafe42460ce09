// Trade through the local runtime: POST /v1/create-order under 16 concurrent buyers on distinct
// sessions, each ordering with a restricted key that has spending limits (its day and month counters are
// charged in the order's transaction), against raw DynamoDB Local TransactWriteItems of the same seven
// items at the same concurrency; negotiation counters at 16 concurrent sessions; and the DynamoDB calls
// of one order with such a key.
//
// Two processes (bench/harness.ts): the server (this module in its child role) starts the local
// runtime, counts the handlers' DynamoDB calls, and prepares the agents, products and sessions through
// the API; the load generator (the bench process) drives HTTP and DynamoDB Local.
import { randomUUID } from 'node:crypto';
import { request, type Agent as HttpAgent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { apiCaller, countCalls, dynamoAccess, handlerModules, isBenchChild, measureApiAndDynamo, serveLocalRuntime, sumCalls, type CallCounts, type ChildCleanup, type DynamoAccess } from './harness.ts';
import { percentile, round } from './stats.ts';

const CONCURRENCY = 16;
/** Accepted sessions prepared per buyer for the create-order load (it stops when they run out). */
const SESSIONS_PER_BUYER = 40;
/** Counters per session in the move load: rounds 2–19, the parties alternating. */
const MOVES_PER_SESSION = 18;
/** The ordering keys' limits: checked and counted on every order, never reached (no approval either). */
const KEY_LIMITS = { maxOrderAmount: { amount: 100_000_000, currency: 'USD' }, spendPerDay: { amount: 100_000_000_000, currency: 'USD' }, spendPerMonth: { amount: 100_000_000_000, currency: 'USD' } };

interface Ready {
  baseUrl: string;
  dynamo: DynamoAccess;
  tableName: string;
  sellerKey: string;
  /** Per buyer: its main key, its program's restricted key with limits (orders), its accepted sessions and one open session (for counters). */
  buyers: { apiKey: string; programKey: string; accepted: string[]; open: string }[];
  /** One stored item of each kind create-order writes, as templates for the raw transactions. */
  templates: { order: Record<string, unknown>; session: Record<string, unknown>; audit: Record<string, unknown>; event: Record<string, unknown>; spend: Record<string, unknown> };
  calls: { coldFirstOrder: CallCounts & { total: number }; warmOrders: number[]; warmPerOrder: number; warmByCommand: CallCounts };
}

export interface TradeResult {
  concurrency: number;
  createOrder: { requests: number; seconds: number; requestsPerSecond: number; p50Ms: number; p95Ms: number; p99Ms: number; errors: number };
  rawTransact: { requests: number; seconds: number; requestsPerSecond: number; p50Ms: number; p95Ms: number };
  /** The limits on every ordering key: large enough never to refuse, so every order charges its counters. */
  keyLimits: Record<string, unknown>;
  orderVsTransactRatio: number;
  negotiationMove: { requests: number; p50Ms: number; p95Ms: number; p99Ms: number; errors: number };
  dynamoCalls: Ready['calls'];
  cleanup: ChildCleanup;
}

// ---------------------------------------------------------------------------------------------
// Server side
// ---------------------------------------------------------------------------------------------

/** The server: the local runtime, a seller and buyers on paid plans, their accepted sessions, and the DynamoDB calls of one order. */
async function serve(): Promise<void> {
  await serveLocalRuntime<Ready>(async (runtime) => {
    const { dynamoDb, setAgentPlan, clearApiKeyCache, currentFunctionName } = await handlerModules();
    // Only create-order's own calls: the runtime's stream workers share this client (each order
    // changes a product, which the search index worker then appends to its log).
    const counter = countCalls(dynamoDb, () => currentFunctionName() === 'createOrder');
    const take = () => counter.take();
    const base = runtime.baseUrl;
    const call = apiCaller(base);
    const register = async (role: 'buyer' | 'seller', plan: 'pro' | 'enterprise') => {
      const registered = await call('POST', '/v1/agents/register', undefined, { name: `Bench ${role}`, role, organization: { legalName: 'Bench GmbH', country: 'DE' }, contactEmail: 'bench@bench.example' });
      if (registered.status !== 201) throw new Error(`register: ${registered.text}`);
      await setAgentPlan(registered.data.agentId as string, plan, new Date().toISOString());
      return { agentId: registered.data.agentId as string, apiKey: registered.data.apiKey as string };
    };

    // One seller; per buyer its own product (orders of different buyers never touch one item), each
    // auto-accepting its list price, so that one request opens an accepted session.
    const seller = await register('seller', 'enterprise');
    const products = Array.from({ length: CONCURRENCY + 1 }, (_, i) => ({
      sku: `BENCH-${i}`,
      title: `Bench nitrile gloves ${i}`,
      price: { amount: 1000, currency: 'USD' },
      autoAcceptUnitPrice: { amount: 1000, currency: 'USD' },
      availableQuantity: 1_000_000_000,
    }));
    products.push({ sku: 'BENCH-TALK', title: 'Bench gloves to negotiate', price: { amount: 1000, currency: 'USD' }, autoAcceptUnitPrice: { amount: 100_000, currency: 'USD' }, availableQuantity: 1_000_000_000 });
    const feed = await call('POST', '/v1/seller/feeds', seller.apiKey, { products });
    const feedId = feed.data.feedId as string;
    if (feed.status !== 202) throw new Error(`feed: ${feed.text}`);
    for (let i = 0; ; i++) {
      const read = await call('GET', `/v1/seller/feeds/${feedId}`, seller.apiKey);
      if (read.data.status === 'completed') break;
      if (read.data.status === 'failed' || i > 200) throw new Error(`feed: ${read.text}`);
      await sleep(100);
    }
    const offerOf = async (sku: string) => ((await call('GET', `/v1/seller/products?sku=${sku}`, seller.apiKey)).data.items as { offers: { offerId: string }[] }[])[0]!.offers[0]!.offerId;
    const talkOffer = await offerOf('BENCH-TALK');
    // Every order is placed with a restricted key that has spending limits, as a program would place it.
    const programKey = async (mainKey: string) => {
      const created = await call('POST', '/v1/agents/me/keys', mainKey, { name: 'Bench program', scopes: ['negotiations:write', 'orders:write'], limits: KEY_LIMITS });
      if (created.status !== 201) throw new Error(`keys: ${created.text}`);
      return created.data.apiKey as string;
    };
    const acceptedSession = async (apiKey: string, offerId: string) => {
      const started = await call('POST', '/v1/negotiate', apiKey, { offerId, quantity: 1 });
      if (started.status !== 201 || started.data.status !== 'accepted') throw new Error(`negotiate: ${started.text}`);
      return started.data.sessionId as string;
    };

    // The calls of one order, as a buyer on the pro plan (its requests are counted against its limits),
    // through its program's restricted key with spending limits.
    const counted = await register('buyer', 'pro');
    const countedProgram = await programKey(counted.apiKey);
    const countedOffer = await offerOf(`BENCH-${CONCURRENCY}`);
    const countedSessions = await Promise.all(Array.from({ length: 11 }, () => acceptedSession(counted.apiKey, countedOffer)));
    clearApiKeyCache();
    take();
    const order = async (sessionId: string) => {
      const created = await call('POST', '/v1/create-order', countedProgram, { sessionId });
      if (created.status !== 201) throw new Error(`create-order: ${created.text}`);
      return created.data.orderId as string;
    };
    const firstOrderId = await order(countedSessions[0]!);
    const coldFirstOrder = take();
    const warmOrders: number[] = [];
    const warmByCommand: CallCounts = {};
    for (const sessionId of countedSessions.slice(1)) {
      await order(sessionId);
      const seen = take();
      warmOrders.push(sumCalls(seen));
      for (const [name, n] of Object.entries(seen)) warmByCommand[name] = (warmByCommand[name] ?? 0) + n;
    }

    // Templates for the raw transactions: the items the first order wrote, as stored.
    const { documentClient } = await import('../shared/data/client.ts');
    const { GetCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
    const tableName = runtime.env.TABLE_NAME as string;
    const get = async (pk: string, sk: string) => (await documentClient.send(new GetCommand({ TableName: tableName, Key: { pk, sk } }))).Item as Record<string, unknown>;
    const orderItem = await get(`ORDER#${firstOrderId}`, 'ORDER');
    const sessionItem = await get(`NEGOTIATION#${countedSessions[0]}`, 'NEGOTIATION');
    const auditItem = await get(`ORDER#${firstOrderId}`, 'AUDIT#000001');
    const spend = orderItem.spend as { keyId: string; day: string; currency: string } | undefined;
    if (!spend) throw new Error('The first order charged no spend counter: its key has no limits');
    const spendItem = await get(`KEYSPEND#${spend.keyId}`, `${spend.day}#${spend.currency}`);
    const outbox = await documentClient.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ORDER#${firstOrderId}` } }));
    if (!outbox.Items || outbox.Items.length !== 2) throw new Error('The first order did not write its audit entry');
    const eventItem = { pk: 'EVENT#template', sk: 'EVENT', entity: 'event', type: 'order.created', data: { orderId: firstOrderId, buyerId: counted.agentId, sellerId: seller.agentId, totalAmount: orderItem.totalAmount, items: orderItem.items }, agentIds: [counted.agentId, seller.agentId], occurredAt: new Date().toISOString(), expiresAt: 0 };

    // The load's buyers: unlimited, each with its accepted sessions and one open session to counter on.
    const buyers: Ready['buyers'] = [];
    for (let i = 0; i < CONCURRENCY; i++) {
      const buyer = await register('buyer', 'enterprise');
      const program = await programKey(buyer.apiKey);
      const offerId = await offerOf(`BENCH-${i}`);
      const accepted: string[] = [];
      for (let j = 0; j < SESSIONS_PER_BUYER; j += 8) accepted.push(...(await Promise.all(Array.from({ length: Math.min(8, SESSIONS_PER_BUYER - j) }, () => acceptedSession(buyer.apiKey, offerId)))));
      const open = await call('POST', '/v1/negotiate', buyer.apiKey, { offerId: talkOffer, quantity: 1, unitPrice: 500 });
      if (open.status !== 201 || open.data.status !== 'open') throw new Error(`negotiate: ${open.text}`);
      buyers.push({ apiKey: buyer.apiKey, programKey: program, accepted, open: open.data.sessionId as string });
    }
    return {
      ready: {
        baseUrl: base,
        dynamo: dynamoAccess(runtime),
        tableName,
        sellerKey: seller.apiKey,
        buyers,
        templates: { order: orderItem, session: sessionItem, audit: auditItem, event: eventItem, spend: spendItem },
        calls: { coldFirstOrder: { ...coldFirstOrder, total: sumCalls(coldFirstOrder) }, warmOrders, warmPerOrder: sumCalls(warmByCommand) / warmOrders.length, warmByCommand },
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Load-generator side
// ---------------------------------------------------------------------------------------------

function httpPost(agent: HttpAgent, url: URL, apiKey: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs each worker's list of requests, one at a time per worker, all workers at once; latencies of the successful ones. */
async function runQueues(queues: (() => Promise<boolean>)[][]): Promise<{ latencies: number[]; errors: number; seconds: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    queues.map(async (queue) => {
      for (const send of queue) {
        const t = performance.now();
        if (await send()) latencies.push(performance.now() - t);
        else errors += 1;
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

export function measureTrade(): Promise<TradeResult> {
  const options = { module: import.meta.filename, tmpPrefix: 'agent-marketplace-bench-trade-', concurrency: CONCURRENCY };
  return measureApiAndDynamo<Ready, Omit<TradeResult, 'cleanup'>>(options, async ({ server, httpAgent, documents }) => {
    const setup = server.ready;
    const createOrderUrl = new URL('/v1/create-order', setup.baseUrl);

    // 1. create-order: 16 buyers, each through its own accepted sessions (the first few warm up).
    const warmup = setup.buyers.map((buyer) => buyer.accepted.slice(0, 3).map((sessionId) => async () => (await httpPost(httpAgent, createOrderUrl, buyer.programKey, { sessionId })) === 201));
    await runQueues(warmup);
    const orders = await runQueues(setup.buyers.map((buyer) => buyer.accepted.slice(3).map((sessionId) => async () => (await httpPost(httpAgent, createOrderUrl, buyer.programKey, { sessionId })) === 201)));

    // 2. The same seven items in one TransactWriteItems, raw: a new order, its session rewritten under a
    //    version condition, the stock decremented under a condition, the audit entry, the event and the
    //    key's day and month counters charged under their limits' conditions.
    const { templates } = setup;
    const sessionKeys = Array.from({ length: CONCURRENCY }, (_, i) => `NEGOTIATION#bench-raw-${i}`);
    const productKeys = Array.from({ length: CONCURRENCY }, (_, i) => ({ pk: `CATALOG#bench-raw#${i}`, sk: 'PRODUCT' }));
    await Promise.all(sessionKeys.map((pk) => documents.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: setup.tableName, Item: { ...templates.session, pk, version: 0 } } }] }))));
    await Promise.all(productKeys.map((key) => documents.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: setup.tableName, Item: { ...key, entity: 'benchProduct', availableQuantity: 1_000_000_000 } } }] }))));
    const versions = sessionKeys.map(() => 0);
    const transact = (worker: number) => async () => {
      const id = randomUUID();
      const pk = sessionKeys[worker] as string;
      const version = versions[worker] as number;
      await documents.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: setup.tableName, Item: { ...templates.order, pk: `ORDER#raw-${id}`, sk: 'ORDER', gsi1sk: `raw-${id}`, gsi2sk: `raw-${id}` }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: setup.tableName, Item: { ...templates.session, pk, version: version + 1 }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': version } } },
            { Update: { TableName: setup.tableName, Key: productKeys[worker], UpdateExpression: 'ADD availableQuantity :minus SET updatedAt = :now', ConditionExpression: 'attribute_exists(pk) AND availableQuantity >= :one', ExpressionAttributeValues: { ':minus': -1, ':one': 1, ':now': new Date().toISOString() } } },
            { Put: { TableName: setup.tableName, Item: { ...templates.audit, pk: `ORDER#raw-${id}` }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: setup.tableName, Item: { ...templates.event, pk: `EVENT#raw-${id}`, eventId: `evt_raw-${id}`, gsi1pk: `OUTBOX#${worker}`, gsi1sk: `raw-${id}` }, ConditionExpression: 'attribute_not_exists(pk)' } },
            ...(['DAY', 'MONTH'] as const).map((period) => ({
              Update: {
                TableName: setup.tableName,
                Key: { pk: `KEYSPEND#raw-${worker}`, sk: `${period}#EUR` },
                UpdateExpression: 'ADD spent :amount SET entity = :entity, expiresAt = :ttl',
                ConditionExpression: 'attribute_not_exists(spent) OR spent <= :room',
                ExpressionAttributeValues: { ':amount': 1000, ':entity': templates.spend.entity, ':ttl': templates.spend.expiresAt, ':room': 10 ** 11 },
              },
            })),
          ],
        }),
      );
      versions[worker] = version + 1;
      return true;
    };
    // Each worker its own session and product items, as each buyer of the create-order load has.
    const perWorker = Math.max(4, Math.ceil(orders.latencies.length / CONCURRENCY));
    await runQueues(Array.from({ length: CONCURRENCY }, (_, worker) => Array.from({ length: 3 }, () => transact(worker))));
    const raw = await runQueues(Array.from({ length: CONCURRENCY }, (_, worker) => Array.from({ length: perWorker }, () => transact(worker))));

    // 3. Counters on 16 sessions at once, seller and buyer in turn (the offer's policy never answers).
    const moveQueues = setup.buyers.map((buyer) =>
      Array.from({ length: MOVES_PER_SESSION }, (_, i) => {
        const bySeller = i % 2 === 0;
        const url = new URL(`/v1/negotiate/${buyer.open}`, setup.baseUrl);
        return async () => (await httpPost(httpAgent, url, bySeller ? setup.sellerKey : buyer.apiKey, { unitPrice: bySeller ? 990 - i : 500 + i })) === 200;
      }),
    );
    const moves = await runQueues(moveQueues);

    const orderRate = orders.latencies.length / orders.seconds;
    const rawRate = raw.latencies.length / raw.seconds;
    return {
      concurrency: CONCURRENCY,
      createOrder: {
        requests: orders.latencies.length,
        seconds: round(orders.seconds, 2),
        requestsPerSecond: round(orderRate, 1),
        p50Ms: round(percentile(orders.latencies, 50), 2),
        p95Ms: round(percentile(orders.latencies, 95), 2),
        p99Ms: round(percentile(orders.latencies, 99), 2),
        errors: orders.errors,
      },
      rawTransact: { requests: raw.latencies.length, seconds: round(raw.seconds, 2), requestsPerSecond: round(rawRate, 1), p50Ms: round(percentile(raw.latencies, 50), 2), p95Ms: round(percentile(raw.latencies, 95), 2) },
      orderVsTransactRatio: round(orderRate / rawRate, 3),
      keyLimits: KEY_LIMITS,
      negotiationMove: { requests: moves.latencies.length, p50Ms: round(percentile(moves.latencies, 50), 2), p95Ms: round(percentile(moves.latencies, 95), 2), p99Ms: round(percentile(moves.latencies, 99), 2), errors: moves.errors },
      dynamoCalls: setup.calls,
    };
  });
}

if (isBenchChild()) await serve();
else if (import.meta.main) console.log(JSON.stringify(await measureTrade(), null, 2));
