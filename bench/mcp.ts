// The agent surfaces through the local runtime:
// - MCP overhead: search_products over Streamable HTTP (POST /mcp with the MCP SDK's Client) against
//   the same intents sent directly to POST /v1/search-intent, interleaved in one run, p95 against p95;
// - events follow: an order change (confirm, ship, deliver) until an agent holding
//   GET /v1/events?after=…&waitSeconds=20 sees it.
//
// Two processes (bench/harness.ts): the server (this module in its child role) starts the local
// runtime and prepares the catalog, the agents and the orders through the API; the load generator
// (the bench process) drives HTTP and MCP.
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiCaller, isBenchChild, serveLocalRuntime, startBenchChild, type ChildCleanup } from './harness.ts';
import { percentile, round } from './stats.ts';

/** Plain-language intents over the demo catalog, in the shapes agents send. */
const INTENTS = [
  '500 nitrile gloves under 0.15 EUR each from Germany within 10 days',
  'safety boots size 43',
  '200 FFP2 respirators',
  'cheapest copy paper A4, 50 boxes',
  'corrugated boxes for shipping, 1000 pieces',
  'hex bolts M8 stainless steel',
  'cordless drill 18V from the USA',
  'hand sanitizer 500 ml, fast delivery',
  'USB-C cables 2 m under $5',
  'LED bulbs E27 warm white, 300 units',
  'high-visibility vests size L',
  'disinfectant wipes for hospitals',
  'coffee beans 1 kg organic',
  'packing tape brown, 100 rolls',
  'stretch film for pallets',
  'ballpoint pens blue, 1000',
  'cut-resistant gloves level 5',
  'AA batteries bulk',
  'Ethernet cable cat6 from Japan',
  'surgical masks type IIR within 5 days',
];
/** Each intent is sent this many times each way, after one warm-up round. */
const ROUNDS = 10;
/** The buyers the searches rotate over: each on the pro plan, counted as in production, below its 600 a minute. */
const SEARCH_BUYERS = 4;
const ORDERS = 8;
const DEMO_PRODUCTS = 1_000;

interface Ready {
  baseUrl: string;
  searchKeys: string[];
  followerKey: string;
  sellerKey: string;
  orders: string[];
}

export interface LatencyFigures {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export interface McpBenchResult {
  search: {
    intents: number;
    rounds: number;
    plan: string;
    direct: LatencyFigures;
    mcp: LatencyFigures;
    overheadRatio: number;
    mcpErrors: number;
    /** CPU of the runtime's process per search, each way in its own batch: what load on the machine does not change. */
    runtimeCpuMsPerSearch: { direct: number; mcp: number; ratio: number };
  };
  eventsFollow: { changes: number; fromSent: LatencyFigures; fromAnswered: LatencyFigures; missed: number };
  /** The machine's 1-minute load average when the measurements started and ended (shared machines move the latencies). */
  loadAverage1m: { start: number; end: number };
  cleanup: ChildCleanup;
}

const figures = (values: readonly number[]): LatencyFigures => ({
  samples: values.length,
  p50Ms: round(percentile(values, 50), 2),
  p95Ms: round(percentile(values, 95), 2),
  p99Ms: round(percentile(values, 99), 2),
});

// ---------------------------------------------------------------------------------------------
// Server side
// ---------------------------------------------------------------------------------------------

async function serve(): Promise<void> {
  await serveLocalRuntime<Ready>(async (runtime) => {
    const { setAgentPlan } = await import('../shared/data/agents.ts');
    const { DEMO_SELLERS, generateCatalog } = await import('../lib/demo/catalog.ts');
    const base = runtime.baseUrl;
    const api = apiCaller(base);
    const call = async (method: string, route: string, apiKey: string | undefined, body?: unknown) => {
      const response = await api(method, route, apiKey, body);
      if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${response.text}`);
      return response.data;
    };
    const register = async (role: 'buyer' | 'seller', plan: 'pro' | 'enterprise', name = `Bench ${role}`) => {
      const registered = await call('POST', '/v1/agents/register', undefined, { name, role, organization: { legalName: 'Bench GmbH', country: 'DE' }, contactEmail: 'bench@bench.example' });
      await setAgentPlan(registered.agentId as string, plan, new Date().toISOString());
      return { agentId: registered.agentId as string, apiKey: registered.apiKey as string };
    };
    const waitForFeed = async (apiKey: string, feedId: string) => {
      for (let i = 0; ; i++) {
        const feed = await call('GET', `/v1/seller/feeds/${feedId}`, apiKey);
        if (feed.status === 'completed') return;
        if (feed.status === 'failed' || i > 600) throw new Error(`feed ${feedId}: ${JSON.stringify(feed)}`);
        await sleep(100);
      }
    };

    // The demo catalog (npm run seed's), three sellers.
    const sellers = DEMO_SELLERS.filter((seller) => ['rhein', 'lakeshore', 'sakura'].includes(seller.key));
    for (const [seller, rows] of generateCatalog({ products: DEMO_PRODUCTS, sellers })) {
      const agent = await register('seller', 'enterprise', seller.name);
      const feed = await call('POST', '/v1/seller/feeds', agent.apiKey, { products: rows });
      await waitForFeed(agent.apiKey, feed.feedId as string);
    }

    // The search buyers, and the index caught up with the catalog.
    const searchBuyers = await Promise.all(Array.from({ length: SEARCH_BUYERS }, () => register('buyer', 'pro')));
    for (let i = 0; ; i++) {
      const page = await call('POST', '/v1/search', searchBuyers[0]!.apiKey, { query: 'gloves', limit: 1 });
      if ((page.items as unknown[]).length > 0) break;
      if (i > 300) throw new Error('the search index never showed the catalog');
      await sleep(100);
    }

    // The follower's orders, pending, on a product whose policy accepts the list price at once.
    const seller = await register('seller', 'enterprise');
    const follower = await register('buyer', 'enterprise');
    const feed = await call('POST', '/v1/seller/feeds', seller.apiKey, {
      products: [{ sku: 'BENCH-FOLLOW', title: 'Bench follow gloves', price: { amount: 1000, currency: 'EUR' }, availableQuantity: 1_000_000, autoAcceptUnitPrice: { amount: 1000, currency: 'EUR' } }],
    });
    await waitForFeed(seller.apiKey, feed.feedId as string);
    const listed = await call('GET', '/v1/seller/products?sku=BENCH-FOLLOW', seller.apiKey);
    const offerId = ((listed.items as { offers: { offerId: string }[] }[])[0]!.offers[0] as { offerId: string }).offerId;
    const orders: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const session = await call('POST', '/v1/negotiate', follower.apiKey, { offerId, quantity: 1 });
      if (session.status !== 'accepted') throw new Error(`negotiate: ${JSON.stringify(session)}`);
      orders.push((await call('POST', '/v1/create-order', follower.apiKey, { sessionId: session.sessionId })).orderId as string);
    }

    return { ready: { baseUrl: base, searchKeys: searchBuyers.map((buyer) => buyer.apiKey), followerKey: follower.apiKey, sellerKey: seller.apiKey, orders } };
  });
}

// ---------------------------------------------------------------------------------------------
// Load-generator side
// ---------------------------------------------------------------------------------------------

async function measureSearch(setup: Ready, runtimeCpu: () => Promise<number>): Promise<McpBenchResult['search']> {
  const clients = await Promise.all(
    setup.searchKeys.map(async (apiKey) => {
      const client = new Client({ name: 'agent-marketplace-bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', setup.baseUrl), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
      return client;
    }),
  );
  const direct: number[] = [];
  const mcp: number[] = [];
  let mcpErrors = 0;
  let runtimeCpuMsPerSearch: McpBenchResult['search']['runtimeCpuMsPerSearch'] | undefined;
  const searchIntent = async (apiKey: string, intent: string) => {
    const response = await fetch(`${setup.baseUrl}/v1/search-intent`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ intent }) });
    await response.json();
    if (response.status !== 200) throw new Error(`search-intent: ${response.status}`);
  };
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [index, intent] of INTENTS.entries()) {
        const buyer = (round * INTENTS.length + index) % clients.length;
        const viaHttp = async () => {
          const started = performance.now();
          await searchIntent(setup.searchKeys[buyer] as string, intent);
          return performance.now() - started;
        };
        const viaMcp = async () => {
          const started = performance.now();
          const result = await (clients[buyer] as Client).callTool({ name: 'search_products', arguments: { intent } });
          const elapsed = performance.now() - started;
          if (result.isError) mcpErrors += 1;
          return elapsed;
        };
        // Alternate which goes first, so that neither always runs warm after the other.
        const [first, second] = (round + index) % 2 === 0 ? [viaHttp, viaMcp] : [viaMcp, viaHttp];
        const a = await first();
        const b = await second();
        if (round === 0) continue; // warm-up
        if (first === viaHttp) {
          direct.push(a);
          mcp.push(b);
        } else {
          mcp.push(a);
          direct.push(b);
        }
      }
    }
    // The runtime's CPU per search, each way in a batch of its own.
    const cpuPerSearch = async (search: (intent: string, buyer: number) => Promise<unknown>) => {
      const before = await runtimeCpu();
      for (const [index, intent] of INTENTS.entries()) await search(intent, index % clients.length);
      return (await runtimeCpu()) - before;
    };
    const directCpu = (await cpuPerSearch((intent, buyer) => searchIntent(setup.searchKeys[buyer] as string, intent))) / INTENTS.length;
    const mcpCpu = (await cpuPerSearch((intent, buyer) => (clients[buyer] as Client).callTool({ name: 'search_products', arguments: { intent } }))) / INTENTS.length;
    runtimeCpuMsPerSearch = { direct: round(directCpu, 2), mcp: round(mcpCpu, 2), ratio: round(mcpCpu / directCpu, 3) };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
  if (!runtimeCpuMsPerSearch) throw new Error('the CPU batches did not run');
  const directFigures = figures(direct);
  const mcpFigures = figures(mcp);
  return { intents: INTENTS.length, rounds: ROUNDS, plan: 'pro (every request counted)', direct: directFigures, mcp: mcpFigures, overheadRatio: round(mcpFigures.p95Ms / directFigures.p95Ms, 3), mcpErrors, runtimeCpuMsPerSearch };
}

interface Seen {
  orderId: string;
  type: string;
  at: number;
}

async function measureEventsFollow(setup: Ready): Promise<McpBenchResult['eventsFollow']> {
  const headers = { authorization: `Bearer ${setup.followerKey}` };
  const newest = (await (await fetch(`${setup.baseUrl}/v1/events?limit=1`, { headers })).json()) as { data: { items: { id: string }[] } };
  let after = newest.data.items[0]?.id;
  if (!after) throw new Error('the follower has no events yet');
  const seen: Seen[] = [];
  const stopFollowing = new AbortController();
  // The follower: one held request after another, each from the last event it saw.
  const follower = (async () => {
    while (!stopFollowing.signal.aborted) {
      const response = await fetch(`${setup.baseUrl}/v1/events?after=${after}&waitSeconds=20&limit=100`, { headers, signal: stopFollowing.signal });
      const page = (await response.json()) as { data: { items: { id: string; type: string; data: { orderId?: string } }[] } };
      const at = performance.now();
      for (const event of page.data.items) {
        seen.push({ orderId: event.data.orderId ?? '', type: event.type, at });
        after = event.id;
      }
    }
  })();
  const fromSent: number[] = [];
  const fromAnswered: number[] = [];
  let missed = 0;
  const moves = [
    ['confirm', 'order.confirmed', undefined],
    ['ship', 'order.shipped', { carrier: 'DHL', trackingNumber: '00340434161094042557' }],
    ['deliver', 'order.delivered', undefined],
  ] as const;
  for (const orderId of setup.orders) {
    for (const [action, type, body] of moves) {
      // A pause of its own length before each change, so that the follower is waiting when it comes.
      await sleep(150 + Math.random() * 150);
      const sent = performance.now();
      const response = await fetch(`${setup.baseUrl}/v1/orders/${orderId}/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${setup.sellerKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      await response.json();
      const answered = performance.now();
      if (response.status !== 200) throw new Error(`${action} ${orderId}: ${response.status}`);
      const deadline = answered + 10_000;
      let event: Seen | undefined;
      while (!(event = seen.find((candidate) => candidate.orderId === orderId && candidate.type === type)) && performance.now() < deadline) await sleep(2);
      if (!event) {
        missed += 1;
        continue;
      }
      fromSent.push(event.at - sent);
      fromAnswered.push(event.at - answered);
    }
  }
  stopFollowing.abort();
  await follower.catch((error: unknown) => {
    if (!stopFollowing.signal.aborted) throw error;
  });
  return { changes: setup.orders.length * moves.length, fromSent: figures(fromSent), fromAnswered: figures(fromAnswered), missed };
}

export async function measureMcp(): Promise<McpBenchResult> {
  const server = await startBenchChild<Ready>({ module: import.meta.filename, tmpPrefix: 'agent-marketplace-bench-mcp-' });
  let result: Omit<McpBenchResult, 'cleanup'>;
  let cleanup: ChildCleanup;
  try {
    const setup = server.ready;
    const loadAtStart = loadavg()[0] ?? 0;
    const search = await measureSearch(setup, () => server.cpuMs());
    const eventsFollow = await measureEventsFollow(setup);
    const loadAverage1m = { start: round(loadAtStart, 2), end: round(loadavg()[0] ?? 0, 2) };
    result = { search, eventsFollow, loadAverage1m };
  } finally {
    cleanup = await server.stop();
  }
  return { ...result, cleanup };
}

if (isBenchChild()) await serve();
else if (import.meta.main) console.log(JSON.stringify(await measureMcp(), null, 2));
