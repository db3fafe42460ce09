// The built SDK against the local runtime: the events feed (list, get, follow) while an order runs,
// and real webhook deliveries received by a node:http server and checked with verifyWebhook.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Marketplace, WebhookVerificationError, verifyWebhook, type MarketplaceEvent } from '@agent-marketplace/sdk';
import { afterAll, describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');
const organization = { legalName: 'Acme GmbH', country: 'DE' };
const uniqueWord = () => `sdkev${randomBytes(5).toString('hex').replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)] as string)}`;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver as an agent would write one: the raw body and the headers of every POST. */
async function receiver(): Promise<{ url: string; deliveries: Delivery[]; server: Server }> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, deliveries, server };
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

async function waitFor<T>(read: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the SDK’s events and webhooks against the local runtime', () => {
  it('follows an order with events.follow, lists and gets its events, and verifies its webhook deliveries', async () => {
    const word = uniqueWord();
    const anonymous = new Marketplace({ baseUrl });
    const sellerAgent = await anonymous.agents.register({ name: 'Seller bot', role: 'seller', organization, contactEmail: 'sales@acme.example' });
    const buyerAgent = await anonymous.agents.register({ name: 'Buyer bot', role: 'buyer', organization, contactEmail: 'buying@acme.example' });
    const seller = anonymous.withApiKey(sellerAgent.apiKey);
    const buyer = anonymous.withApiKey(buyerAgent.apiKey);

    const hooks = await receiver();
    servers.push(hooks.server);
    const secret = `sëcret-${word}-with-more-than-16`;
    const subscription = await buyer.webhooks.create({ url: hooks.url, events: ['order.created', 'order.confirmed', 'order.shipped'], secret });

    const feed = await seller.feeds.waitUntilDone((await seller.feeds.upload({ products: [{ sku: `EV-${word}`, title: `${word} boots`, price: { amount: 5000, currency: 'USD' }, availableQuantity: 20, negotiable: false }] })).feedId);
    expect(feed.status).toBe('completed');
    const [listed] = (await seller.sellerProducts.list({ sku: `EV-${word}` })).items;
    const session = await buyer.negotiations.start({ offerId: listed!.offers[0]!.offerId, quantity: 2 });
    expect(session.status).toBe('accepted');

    // Follow from the newest event now (the session's): only what happens after it comes.
    const start = (await buyer.events.list({ limit: 1 })).items[0];
    expect(start?.type).toBe('negotiation.accepted');
    const controller = new AbortController();
    const followed: MarketplaceEvent[] = [];
    const following = (async () => {
      try {
        for await (const event of buyer.events.follow({ after: start!.id, signal: controller.signal, waitSeconds: 5, type: ['order.created', 'order.confirmed', 'order.shipped'] })) {
          followed.push(event);
          if (event.type === 'order.shipped') break;
        }
      } catch (error) {
        if (!controller.signal.aborted) throw error;
      }
    })();
    const order = await buyer.orders.create({ sessionId: session.sessionId });
    await seller.orders.confirm(order.orderId);
    await seller.orders.ship(order.orderId, { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' });
    const timer = setTimeout(() => controller.abort(new Error('follow timed out')), 30_000);
    await following;
    clearTimeout(timer);
    expect(followed.map((event) => event.type)).toEqual(['order.created', 'order.confirmed', 'order.shipped']);
    expect(followed.every((event) => (event.data as { orderId: string }).orderId === order.orderId)).toBe(true);

    // The feed newest first, and one event by id: the same envelopes.
    const newest = await buyer.events.list({ type: ['order.shipped', 'order.confirmed', 'order.created'], limit: 3 });
    expect(newest.items.map((event) => event.id)).toEqual(followed.map((event) => event.id).reverse());
    expect(await buyer.events.get(followed[0]!.id)).toEqual(followed[0]);
    const everything = await buyer.events.list({ after: followed[0]!.id }).toArray();
    expect(everything.map((event) => event.id)).toEqual(followed.slice(1).map((event) => event.id));

    // Each event reached the receiver, signed: verifyWebhook returns the envelope the feed shows.
    await waitFor(() => (hooks.deliveries.length >= 3 ? true : undefined), 'three deliveries');
    const verified = hooks.deliveries.map((delivery) => verifyWebhook({ body: delivery.body, headers: delivery.headers, secret }));
    expect(verified.map((event) => event.id).sort()).toEqual(followed.map((event) => event.id).sort());
    for (const event of verified) expect(event).toEqual(followed.find((candidate) => candidate.id === event.id));
    for (const delivery of hooks.deliveries) expect(delivery.headers['webhook-id']).toBe(JSON.parse(delivery.body).id);

    // A changed body, another secret, or an old delivery replayed later: refused.
    const first = hooks.deliveries[0]!;
    expect(() => verifyWebhook({ body: first.body.replace('order.', 'order .'), headers: first.headers, secret })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ body: first.body, headers: first.headers, secret: `${secret}x` })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ body: first.body, headers: first.headers, secret, now: new Date(Date.now() + 10 * 60_000) })).toThrow(WebhookVerificationError);

    const log = await buyer.webhooks.deliveries.list(subscription.id, { status: 'delivered' }).toArray();
    expect(log.map((delivery) => delivery.eventId).sort()).toEqual(followed.map((event) => event.id).sort());
  });
});
