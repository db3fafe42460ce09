// Webhook delivery through the local runtime: events recorded in the outbox (as every change records
// them, in a transaction) to signed POSTs received by a sink in this process, against signed POSTs to
// the same sink from a plain loop at the same concurrency; the same number of deliveries' table writes
// alone (DynamoDB Local's ceiling for the pipeline on this machine); and, at a gentle rate, the time
// from an event's commit to its receipt.
//
// Two processes (bench/harness.ts): the server (this module in its child role, the sink's URL its
// argument) starts the local runtime, registers an agent with 20 subscriptions to the sink (and one
// more agent with one), and records events when asked; this process runs the sink and the raw loop.
import { createHmac } from 'node:crypto';
import { Agent as HttpAgent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiCaller, isBenchChild, serveLocalRuntime, startBenchChild, type BenchChild, type ChildCleanup } from './harness.ts';
import { percentile, round } from './stats.ts';

const SUBSCRIPTIONS = 20;
const EVENTS = 250; // × 20 subscriptions = 5,000 deliveries
const LATENCY_EVENTS = 40;
const LATENCY_INTERVAL_MS = 200;

interface Ready {
  sendingConcurrency: number;
}

/** Each recorded event's id → when its transaction committed (epoch ms). */
type Recorded = Record<string, number>;

export interface WebhooksResult {
  deliveries: number;
  seconds: number;
  deliveriesPerSecond: number;
  rawPosts: number;
  rawSeconds: number;
  rawPostsPerSecond: number;
  concurrency: number;
  deliveryVsRawPostRatio: number;
  /** The same number of deliveries' table writes alone (no reads, queue or POSTs), same run: DynamoDB Local's ceiling for the pipeline. */
  writesOnlySeconds: number;
  writesOnlyDeliveriesPerSecond: number;
  deliveryVsWritesOnlyRatio: number;
  writesOnlyVsRawPostRatio: number;
  eventToDelivery: { events: number; intervalMs: number; p50Ms: number; p95Ms: number; maxMs: number };
  cleanup: ChildCleanup;
}

// ---------------------------------------------------------------------------------------------
// Server side
// ---------------------------------------------------------------------------------------------

async function serve(): Promise<void> {
  await serveLocalRuntime<Ready>(async (runtime, [sinkUrl]) => {
    const { setAgentPlan } = await import('../shared/data/agents.ts');
    const { recordEvent } = await import('../shared/data/events.ts');
    const { transactWrite } = await import('../shared/data/transactions.ts');
    const { workers } = await import('../functions/registry.ts');
    const call = apiCaller(runtime.baseUrl);
    const agent = async (subscriptions: number) => {
      const registered = await call('POST', '/v1/agents/register', undefined, { name: 'Bench subscriber', role: 'buyer', organization: { legalName: 'Bench GmbH', country: 'DE' }, contactEmail: 'bench@bench.example' });
      const agentId = registered.data.agentId as string;
      const apiKey = registered.data.apiKey as string;
      await setAgentPlan(agentId, 'enterprise', new Date().toISOString());
      for (let i = 0; i < subscriptions; i++) {
        const created = await call('POST', '/v1/webhooks', apiKey, { url: `${sinkUrl}/${agentId}/${i}`, events: ['*'], secret: `bench-secret-${i}-0123456789` });
        if (created.status !== 201) throw new Error(`subscribe: ${JSON.stringify(created.data)}`);
      }
      return agentId;
    };
    const many = await agent(SUBSCRIPTIONS);
    const one = await agent(1);
    const consumer = workers.find((worker) => worker.trigger.type === 'sqs')?.trigger as { batchSize: number; maxConcurrency: number };

    // Each event as a change records it: a Put in a transaction (here the transaction holds only it).
    const record = async (agentId: string) => {
      const { event, operation } = recordEvent({ type: 'order.created', data: { orderId: 'ord_bench', buyerId: agentId, sellerId: agentId, totalAmount: { amount: 1000, currency: 'USD' }, items: [] }, agentIds: [agentId] }, new Date());
      await transactWrite([operation]);
      return { eventId: event.eventId, committedAt: Date.now() };
    };
    // A delivery's table writes and nothing else, shaped as the pipeline writes them: fan-out records 4
    // events' 20 deliveries per transaction (4 at once); each batch's lane takes a slot and records 10
    // attempts with the slot's release in one transaction (5 lanes at once, as 5 batches).
    const writesOnly = async (): Promise<number> => {
      const { DeliveryEntity } = await import('../shared/data/deliveries.ts');
      const { SendingSlotEntity } = await import('../shared/data/sending-slots.ts');
      const at = new Date().toISOString();
      const items = Array.from({ length: EVENTS * SUBSCRIPTIONS }, (_, i) => ({
        deliveryId: `dlv_floor${String(i).padStart(6, '0')}`, subscriptionId: `whk_floor${i % SUBSCRIPTIONS}`, agentId: many, eventId: `evt_floor${Math.floor(i / SUBSCRIPTIONS)}`,
        eventType: 'order.created', status: 'pending' as const, attempts: [], nextAttemptAt: at, createdAt: at, updatedAt: at,
        payload: JSON.stringify({ id: 'evt_floor', type: 'order.created', timestamp: at, data: { orderId: 'ord_bench', buyerId: many, sellerId: many, totalAmount: { amount: 1000, currency: 'USD' }, items: [] } }), attemptCount: 0,
      }));
      const inLanes = async <T>(chunks: T[][], lanes: number, work: (chunk: T[], lane: number) => Promise<void>) => {
        let next = 0;
        await Promise.all(Array.from({ length: lanes }, async (_, lane) => {
          while (next < chunks.length) await work(chunks[next++] as T[], lane);
        }));
      };
      const chunked = <T>(list: T[], size: number) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
      const started = performance.now();
      await inLanes(chunked(items, 4 * SUBSCRIPTIONS), 4, (chunk) => transactWrite(chunk.map((item) => DeliveryEntity.putOperation(item.deliveryId, item, item, DeliveryEntity.where.notExists('pk')))));
      const sorted = [...items].sort((a, b) => (a.subscriptionId < b.subscriptionId ? -1 : 1));
      await inLanes(chunked(sorted, 10), 5, async (chunk, lane) => {
        const subscriptionId = (chunk[0] as (typeof items)[number]).subscriptionId;
        await SendingSlotEntity.put({ laneId: `lane${lane}`, deliveryIds: chunk.map((item) => item.deliveryId), until: Date.now() + 20_000 }, { subscriptionId, slot: lane % 4 }, { condition: SendingSlotEntity.where.or(SendingSlotEntity.where.notExists('pk'), SendingSlotEntity.where.lt('until', Date.now())) }).catch(() => undefined);
        await transactWrite([
          ...chunk.map((item) => DeliveryEntity.putOperation(item.deliveryId, { ...item, status: 'delivered', nextAttemptAt: null, attemptCount: 1, attempts: [{ at, statusCode: 200, error: null, durationMs: 2, responseBody: '', manual: false }] }, item, DeliveryEntity.where.eq('attemptCount', 0))),
          SendingSlotEntity.deleteOperation('slot', { subscriptionId, slot: lane % 4 }),
        ]);
      });
      return (performance.now() - started) / 1000;
    };
    return {
      ready: { sendingConcurrency: consumer.batchSize * consumer.maxConcurrency },
      commands: {
        /** Events to the one-subscription agent, LATENCY_INTERVAL_MS apart. */
        latency: async (): Promise<Recorded> => {
          const committedAt: Recorded = {};
          for (let i = 0; i < LATENCY_EVENTS; i++) {
            const recorded = await record(one);
            committedAt[recorded.eventId] = recorded.committedAt;
            await sleep(LATENCY_INTERVAL_MS);
          }
          return committedAt;
        },
        /** EVENTS events to the agent with SUBSCRIPTIONS subscriptions, 10 at a time. */
        burst: async (): Promise<Recorded> => {
          const committedAt: Recorded = {};
          for (let i = 0; i < EVENTS; i += 10) {
            for (const recorded of await Promise.all(Array.from({ length: Math.min(10, EVENTS - i) }, () => record(many)))) committedAt[recorded.eventId] = recorded.committedAt;
          }
          return committedAt;
        },
        writesOnly: () => writesOnly(),
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Load-generator side
// ---------------------------------------------------------------------------------------------

export async function measureWebhooks(): Promise<WebhooksResult> {
  // The sink: answers 200 at once and notes when each event arrived at each path.
  const receipts = new Map<string, number>();
  const sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const eventId = req.headers['x-marketplace-event-id'] as string;
      const key = `${eventId} ${req.url}`;
      if (!receipts.has(key)) receipts.set(key, Date.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

  let server: BenchChild<Ready>;
  try {
    server = await startBenchChild<Ready>({ module: import.meta.filename, tmpPrefix: 'agent-marketplace-bench-webhooks-', args: [sinkUrl] });
  } catch (error) {
    sink.close();
    throw error;
  }
  const waitForReceipts = async (count: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (receipts.size < count) {
      if (Date.now() > deadline) throw new Error(`The sink received ${receipts.size} of ${count} deliveries in ${timeoutMs / 1000} s`);
      await sleep(20);
    }
  };

  let result: Omit<WebhooksResult, 'cleanup'>;
  let cleanup: ChildCleanup;
  try {
    const { sendingConcurrency } = server.ready;

    // 1. Latency at a gentle rate: one subscription, an event every 200 ms.
    const gentle = await server.command<Recorded>('latency', undefined, 120_000);
    await waitForReceipts(LATENCY_EVENTS, 60_000);
    const latencies = Object.entries(gentle).map(([eventId, committed]) => {
      const receipt = [...receipts.entries()].find(([key]) => key.startsWith(`${eventId} `))?.[1];
      return (receipt ?? Number.NaN) - committed;
    });

    // 2. 5,000 deliveries: 250 events to an agent with 20 subscriptions.
    receipts.clear();
    const started = Date.now();
    await server.command<Recorded>('burst', undefined, 300_000);
    await waitForReceipts(EVENTS * SUBSCRIPTIONS, 600_000);
    const seconds = (Math.max(...receipts.values()) - started) / 1000;

    // 3. The same number of signed POSTs to the same sink from a plain loop, at the pipeline's concurrency.
    const agent = new HttpAgent({ keepAlive: true, maxSockets: sendingConcurrency });
    const body = JSON.stringify({ id: 'evt_raw', type: 'order.created', timestamp: new Date().toISOString(), data: { orderId: 'ord_bench' } });
    const post = () =>
      new Promise<void>((resolve, reject) => {
        const req = request(`${sinkUrl}/raw`, {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'x-marketplace-signature': `sha256=${createHmac('sha256', 'bench-secret').update(body).digest('hex')}`, 'x-marketplace-timestamp': String(Math.floor(Date.now() / 1000)), 'x-marketplace-event-id': 'evt_raw' },
        }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      });
    let sent = 0;
    const rawStarted = performance.now();
    await Promise.all(Array.from({ length: sendingConcurrency }, async () => {
      while (sent < EVENTS * SUBSCRIPTIONS) {
        sent += 1;
        await post();
      }
    }));
    const rawSeconds = (performance.now() - rawStarted) / 1000;
    agent.destroy();

    // 4. The deliveries' table writes alone.
    const writesOnlySeconds = await server.command<number>('writesOnly', undefined, 600_000);

    const deliveries = EVENTS * SUBSCRIPTIONS;
    const deliveriesPerSecond = deliveries / seconds;
    const rawPostsPerSecond = deliveries / rawSeconds;
    const writesOnlyDeliveriesPerSecond = deliveries / writesOnlySeconds;
    result = {
      deliveries,
      seconds: round(seconds, 2),
      deliveriesPerSecond: round(deliveriesPerSecond, 1),
      rawPosts: deliveries,
      rawSeconds: round(rawSeconds, 2),
      rawPostsPerSecond: round(rawPostsPerSecond, 0),
      concurrency: sendingConcurrency,
      deliveryVsRawPostRatio: round(deliveriesPerSecond / rawPostsPerSecond, 4),
      writesOnlySeconds: round(writesOnlySeconds, 2),
      writesOnlyDeliveriesPerSecond: round(writesOnlyDeliveriesPerSecond, 1),
      deliveryVsWritesOnlyRatio: round(deliveriesPerSecond / writesOnlyDeliveriesPerSecond, 3),
      writesOnlyVsRawPostRatio: round(writesOnlyDeliveriesPerSecond / rawPostsPerSecond, 4),
      eventToDelivery: { events: latencies.length, intervalMs: LATENCY_INTERVAL_MS, p50Ms: round(percentile(latencies, 50), 1), p95Ms: round(percentile(latencies, 95), 1), maxMs: round(Math.max(...latencies), 1) },
    };
  } finally {
    cleanup = await server.stop();
    sink.closeAllConnections();
    sink.close();
  }
  return { ...result, cleanup };
}

if (isBenchChild()) await serve();
else if (import.meta.main) console.log(JSON.stringify(await measureWebhooks(), null, 2));
