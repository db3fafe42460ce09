// README.md, "Test without a counterparty", run as written against the local runtime (a sandbox): each
// curl command of the buyer's and the seller's blocks sent as its method, path, headers and body say,
// with the key and the ids the earlier answers gave (`ofr_…`, `neg_…`, `ord_…`) filled in. The buyer
// orders from the house seller in five calls and has it delivered with every event; the seller's offer
// is negotiated and ordered by a house buyer, and fulfilled.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOUSE_SELLER } from '../../shared/domain/house-agents.ts';
import type { TestResponse } from '../support/http-client.ts';
import { REPOSITORY_ROOT } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct } from '../support/trade.ts';

const client = newClient();
const readme = readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8');

interface Command {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The curl commands of the block under `<!-- sandbox: name -->`: continuation lines joined, comments dropped. */
function commands(name: string): Command[] {
  const found = new RegExp(`<!-- sandbox: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!found) throw new Error(`README.md has no block marked sandbox: ${name}`);
  const lines = (found[1] as string).replace(/\\\n\s*/g, ' ').split('\n');
  return lines
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('curl '))
    .map((line) => {
      const url = /(http:\/\/localhost:3000\S+)/.exec(line)?.[1];
      if (!url) throw new Error(`No URL in: ${line}`);
      const headers: Record<string, string> = {};
      for (const [, header] of line.matchAll(/-H '([^']+)'/g)) {
        const [key, ...value] = (header as string).split(':');
        headers[(key as string).toLowerCase()] = value.join(':').trim();
      }
      const data = /-d '([^']+)'/.exec(line)?.[1];
      return { method: /-X (\w+)/.exec(line)?.[1] ?? 'GET', path: decodeURI(new URL(url).pathname + new URL(url).search), headers, body: data === undefined ? undefined : JSON.parse(data) };
    });
}

/** Sends a README command as the agent with `apiKey`, with the placeholders of `ids` filled in. */
async function send(command: Command, apiKey: string | undefined, ids: Record<string, string>): Promise<TestResponse> {
  const fill = (text: string) => text.replace(/(ofr|neg|ord)_…/g, (placeholder) => ids[placeholder] ?? placeholder);
  const body = command.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(command.body)));
  const headers = Object.fromEntries(Object.entries(command.headers).filter(([key]) => key !== 'authorization' && key !== 'content-type'));
  return client.send(command.method, fill(command.path), { ...(apiKey ? { apiKey } : {}), body, headers });
}

describe('README: Test without a counterparty', () => {
  it('a buyer’s first order from the house seller in five calls, delivered with every event', async () => {
    const steps = commands('buyer');
    expect(steps.map((step) => `${step.method} ${step.path.replace(/(ofr|neg|ord)_…/g, '{id}')}`)).toEqual([
      'POST /v1/agents/register',
      'POST /v1/search',
      'POST /v1/negotiate',
      'POST /v1/create-order',
      'POST /v1/test-helpers/orders/{id}/advance',
    ]);
    const ids: Record<string, string> = {};
    const registered = await send(steps[0]!, undefined, ids);
    expect(registered.status, registered.text).toBe(201);
    const apiKey = registered.json.data.apiKey as string;
    const found = await send(steps[1]!, apiKey, ids);
    expect(found.status, found.text).toBe(200);
    expect(found.json.data.items.length).toBeGreaterThan(0);
    expect(found.json.data.items.every((item: any) => item.product.sellerId === HOUSE_SELLER.agentId)).toBe(true);
    // The README's quantity: the first offer found that sells that many.
    const quantity = (steps[2]!.body as { quantity: number }).quantity;
    const offer = found.json.data.items.map((item: any) => item.offer).find((candidate: any) => candidate.minQuantity <= quantity);
    expect(offer, 'a house offer for the README’s quantity').toBeDefined();
    ids['ofr_…'] = offer.offerId;
    const session = await send(steps[2]!, apiKey, ids);
    expect(session.status, session.text).toBe(201);
    expect(session.json.data.status).toBe('accepted');
    ids['neg_…'] = session.json.data.sessionId;
    const placed = await send(steps[3]!, apiKey, ids);
    expect(placed.status, placed.text).toBe(201);
    expect(placed.json.data.status).toBe('pending');
    ids['ord_…'] = placed.json.data.orderId;
    const advanced = await send(steps[4]!, apiKey, ids);
    expect(advanced.status, advanced.text).toBe(200);
    expect(advanced.json.data.status).toBe('delivered');
    await expect
      .poll(async () => ((await client.get('/v1/events', { apiKey })).json.data.items as { type: string }[]).map((event) => event.type).sort(), { timeout: 20_000, interval: 200 })
      .toEqual(['negotiation.accepted', 'negotiation.started', 'order.confirmed', 'order.created', 'order.delivered', 'order.shipped']);
  });

  it('a seller’s first negotiation from a house buyer, ordered and fulfilled; an order straight away', async () => {
    const steps = commands('seller');
    expect(steps.map((step) => `${step.method} ${step.path.replace(/(ofr|neg|ord)_…/g, '{id}')}`)).toEqual([
      'POST /v1/test-helpers/negotiations',
      'GET /v1/negotiations/{id}',
      'POST /v1/orders/{id}/confirm',
      'POST /v1/test-helpers/orders',
    ]);
    // An offer with a policy, as the template's gloves have: it bargains with the house buyer by itself.
    const listing = await listProduct(client, {
      price: { amount: 1250, currency: 'USD' },
      negotiable: true,
      floorUnitPrice: { amount: 1000, currency: 'USD' },
      autoAcceptUnitPrice: { amount: 1200, currency: 'USD' },
      negotiationStrategy: 'boulware',
    });
    const apiKey = listing.seller.apiKey;
    const ids: Record<string, string> = { 'ofr_…': listing.offerId };
    const started = await send(steps[0]!, apiKey, ids);
    expect(started.status, started.text).toBe(201);
    ids['neg_…'] = started.json.data.sessionId;
    let session: any;
    await expect
      .poll(async () => {
        const read = await send(steps[1]!, apiKey, ids);
        session = read.json.data;
        return session.status;
      }, { timeout: 30_000, interval: 250 })
      .toBe('ordered');
    expect(session.history.length).toBeGreaterThan(1);
    ids['ord_…'] = session.orderId;
    const confirmed = await send(steps[2]!, apiKey, ids);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data.status).toBe('confirmed');
    const ordered = await send(steps[3]!, apiKey, ids);
    expect(ordered.status, ordered.text).toBe(201);
    expect(ordered.json.data).toMatchObject({ status: 'pending', sellerId: listing.seller.agentId });
  });
});
