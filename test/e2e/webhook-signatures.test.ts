// Replay-safe signatures over HTTP against the local runtime: every delivery (a recorded event, a test
// event, a manual retry) carries the Standard Webhooks headers beside the specification's, and an
// independent Standard Webhooks implementation (the `standardwebhooks` package) verifies them with the
// subscription's secret as `whsec_` + base64(UTF-8 secret), refuses a replay once its timestamp is
// older than five minutes, a timestamp changed to look fresh, and a tampered body.
import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerUnlimited, waitForFeed } from '../support/catalog.ts';
import { Receiver, type Received } from '../support/receiver.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const receiver = new Receiver();
// Not ASCII on purpose: the key is the secret's UTF-8 bytes, as for X-Marketplace-Signature.
const SECRET = 'sécret-für-webhooks-0123456789';
const standardKey = `whsec_${Buffer.from(SECRET, 'utf8').toString('base64')}`;

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

const headersOf = (request: Received) => request.headers as Record<string, string>;

function refusal(verify: () => unknown): string {
  try {
    verify();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as Error).message;
  }
  throw new Error('verification passed');
}

async function subscribe(apiKey: string, path: string, events = ['*']): Promise<string> {
  const response = await client.post('/v1/webhooks', { url: receiver.url(path), events, secret: SECRET }, { apiKey });
  expect(response.status, response.text).toBe(201);
  return response.json.data.id as string;
}

describe('Standard Webhooks signatures', () => {
  it('sign every delivery so that a Standard Webhooks library verifies it, beside the specification’s signature', async () => {
    const seller = await registerUnlimited(client, 'seller');
    const path = `/signed/${Date.now()}`;
    // Under its recorded (canonical) name, as `*` would receive it too.
    const subscriptionId = await subscribe(seller.apiKey, path, ['feed.completed']);
    // A recorded event, delivered from the queue.
    const upload = await client.post('/v1/seller/feeds', { products: [{ sku: 'SIG-1', title: 'Signed gloves', price: { amount: 100, currency: 'USD' }, availableQuantity: 5 }] }, { apiKey: seller.apiKey });
    expect(upload.status, upload.text).toBe(202);
    await waitForFeed(client, seller.apiKey, upload.json.data.feedId);
    const [delivered] = await receiver.waitFor(path, 1);
    // A test event, then a manual retry of it.
    const test = await client.post(`/v1/webhooks/${subscriptionId}/test`, undefined, { apiKey: seller.apiKey });
    expect(test.status, test.text).toBe(202);
    await receiver.waitFor(path, 2);
    const deadline = Date.now() + 20_000;
    let retry = await client.post(`/v1/webhooks/${subscriptionId}/deliveries/${test.json.data.deliveryId}/retry`, undefined, { apiKey: seller.apiKey });
    while (retry.status === 409 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      retry = await client.post(`/v1/webhooks/${subscriptionId}/deliveries/${test.json.data.deliveryId}/retry`, undefined, { apiKey: seller.apiKey });
    }
    expect(retry.status, retry.text).toBe(202);
    const requests = await receiver.waitFor(path, 3);

    const library = new Webhook(standardKey);
    const raw = new Webhook(new TextEncoder().encode(SECRET), { format: 'raw' });
    for (const request of requests) {
      const headers = headersOf(request);
      const envelope = JSON.parse(request.body) as { id: string; type: string };
      expect(library.verify(request.body, headers)).toEqual(envelope);
      expect(raw.verify(request.body, headers)).toEqual(envelope);
      // One id and one timestamp, whichever headers a receiver reads.
      expect(headers['webhook-id']).toBe(envelope.id);
      expect(headers['x-marketplace-event-id']).toBe(envelope.id);
      expect(headers['webhook-timestamp']).toBe(headers['x-marketplace-timestamp']);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(headers['x-marketplace-signature']).toBe(`sha256=${createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(request.body).digest('hex')}`);
    }
    expect(JSON.parse(requests[0]!.body).type).toBe('feed.completed');
    expect(requests.slice(1).map((request) => JSON.parse(request.body).type)).toEqual(['webhook.test', 'webhook.test']);
    // A retry is a new attempt: same event id, its own timestamp and signature.
    expect(headersOf(requests[2]!)['webhook-id']).toBe(headersOf(requests[1]!)['webhook-id']);

    // The delivered event is the one the events feed shows, byte for byte the same envelope.
    const event = await client.get(`/v1/events/${JSON.parse(delivered!.body).id}`, { apiKey: seller.apiKey });
    expect(event.status, event.text).toBe(200);
    expect(JSON.stringify(event.json.data)).toBe(delivered!.body);
  });

  it('lets a receiver refuse a replay, a refreshed timestamp and a tampered body', async () => {
    const agent = await registerUnlimited(client, 'buyer');
    const path = `/replayed/${Date.now()}`;
    const subscriptionId = await subscribe(agent.apiKey, path);
    expect((await client.post(`/v1/webhooks/${subscriptionId}/test`, undefined, { apiKey: agent.apiKey })).status).toBe(202);
    const [request] = await receiver.waitFor(path, 1);
    const headers = headersOf(request!);
    const library = new Webhook(standardKey);
    expect(library.verify(request!.body, headers)).toEqual(JSON.parse(request!.body));

    // The same request six minutes later: its signed timestamp is too old.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6 * 60 * 1000);
    expect(refusal(() => library.verify(request!.body, headers))).toMatch(/too old/);
    // A replayer who refreshes the timestamp breaks the signature over it.
    expect(refusal(() => library.verify(request!.body, { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) }))).toMatch(/No matching signature/);
    vi.useRealTimers();

    // A changed body, or another event's id, does not match either.
    expect(refusal(() => library.verify(request!.body.replace('webhook.test', 'order.created'), headers))).toMatch(/No matching signature/);
    expect(refusal(() => library.verify(request!.body, { ...headers, 'webhook-id': 'evt_00000000000000000000000000' }))).toMatch(/No matching signature/);
    // Nor does another secret.
    expect(refusal(() => new Webhook(`whsec_${Buffer.from('another-secret-0123456789').toString('base64')}`).verify(request!.body, headers))).toMatch(/No matching signature/);
  });
});
