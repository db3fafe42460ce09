// `npm run seed`: a demo marketplace through the public API of a running `npm start` (or BASE_URL):
// three sellers in Germany, the US and Japan, a buyer, and about 1,000 generated products uploaded as
// feeds. The keys are kept in DATA_DIR/seed-keys.json (default .data): a second run reuses them and
// re-uploads the same skus, which the feeds upsert, so nothing is added twice.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEMO_SELLERS, generateCatalog, type DemoSeller } from '../lib/demo/catalog.ts';

const baseUrl = (process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
const keysFile = join(resolve(process.env.DATA_DIR ?? '.data'), 'seed-keys.json');
const PRODUCTS = Number(process.env.SEED_PRODUCTS ?? 1000);

interface Agent {
  agentId: string;
  apiKey: string;
}

interface Feed {
  feedId: string;
  status: string;
  rowsSucceeded: number;
}

async function call(method: string, path: string, body?: unknown, apiKey?: string): Promise<{ status: number; json: { data: Record<string, unknown> } }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: (await response.json().catch(() => ({ data: {} }))) as { data: Record<string, unknown> } };
}

async function agentFor(name: string, saved: Agent | undefined, registration: Record<string, unknown>): Promise<Agent> {
  if (saved && (await call('GET', '/v1/agents/me', undefined, saved.apiKey)).status === 200) return saved;
  const registered = await call('POST', '/v1/agents/register', registration);
  if (registered.status !== 201) throw new Error(`Registering ${name}: ${registered.status} ${JSON.stringify(registered.json)}`);
  return { agentId: String(registered.json.data.agentId), apiKey: String(registered.json.data.apiKey) };
}

async function waitForFeed(apiKey: string, feedId: string): Promise<Feed> {
  for (;;) {
    const feed = (await call('GET', `/v1/seller/feeds/${feedId}`, undefined, apiKey)).json.data as unknown as Feed;
    if (feed.status === 'completed' || feed.status === 'failed') return feed;
    await new Promise((done) => setTimeout(done, 500));
  }
}

async function main(): Promise<void> {
  if ((await call('GET', '/health').catch(() => ({ status: 0 }))).status !== 200) {
    console.error(`No marketplace at ${baseUrl}: start it with npm start (or set BASE_URL).`);
    process.exitCode = 1;
    return;
  }
  const saved = existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, Agent>) : {};
  const sellers = DEMO_SELLERS.filter((seller) => ['rhein', 'lakeshore', 'sakura'].includes(seller.key));
  const keys: Record<string, Agent> = {};
  for (const seller of sellers) {
    keys[seller.key] = await agentFor(seller.name, saved[seller.key], {
      name: seller.name,
      role: 'seller',
      organization: { legalName: seller.legalName, country: seller.country },
      contactEmail: seller.contactEmail,
    });
  }
  keys.buyer = await agentFor('the demo buyer', saved.buyer, {
    name: 'Demo procurement agent',
    role: 'buyer',
    organization: { legalName: 'Demo Buyer GmbH', country: 'DE' },
    contactEmail: 'procurement@demo-buyer.example',
  });
  mkdirSync(resolve(keysFile, '..'), { recursive: true });
  writeFileSync(keysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });

  const catalog = generateCatalog({ products: PRODUCTS, sellers });
  for (const [seller, rows] of catalog as Map<DemoSeller, unknown[]>) {
    const apiKey = (keys[seller.key] as Agent).apiKey;
    const upload = await call('POST', '/v1/seller/feeds', { products: rows, filename: `${seller.key}-demo.json` }, apiKey);
    if (upload.status !== 202) throw new Error(`Feed for ${seller.name}: ${upload.status} ${JSON.stringify(upload.json)}`);
    const feed = await waitForFeed(apiKey, String(upload.json.data.feedId));
    console.log(`${seller.name} (${seller.country}): feed ${feed.feedId} ${feed.status}, ${feed.rowsSucceeded} products`);
  }
  console.log('');
  for (const [name, agent] of Object.entries(keys)) console.log(`${name.padEnd(10)} ${agent.agentId}  ${agent.apiKey}`);
  console.log(`\nKeys saved in ${keysFile}. Try:`);
  console.log(`  curl -s -X POST ${baseUrl}/v1/search-intent -H 'Authorization: Bearer ${keys.buyer.apiKey}' -H 'Content-Type: application/json' -d '{"intent":"500 nitrile gloves under 0.15 EUR each from Germany within 10 days"}'`);
}

await main();
