// Webhook endpoint health over HTTP against the local runtime (Svix's rule): a subscription is failing
// from its first failed delivery after a delivered one, healthy again at the next delivered one, and
// disabled once every delivery has failed for the stage's period (WEBHOOK_DISABLE_AFTER_SECONDS: 20 s
// in the test runtime, 5 days in a stack), with a webhook.disabled event to the agent's events feed and
// its other subscriptions; PATCH active: true turns it back on.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { Receiver } from '../support/receiver.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const receiver = new Receiver();
const SECRET = 'whsec_test_0123456789abcdef';
/** The test runtime's WEBHOOK_DISABLE_AFTER_SECONDS (test/setup/global-setup.ts). */
const DISABLE_AFTER_MS = 20_000;

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

const unique = () => `/health/${Math.random().toString(36).slice(2)}`;

async function subscribe(apiKey: string, url: string, events: string[]): Promise<string> {
  const response = await client.post('/v1/webhooks', { url, events, secret: SECRET }, { apiKey });
  expect(response.status, response.text).toBe(201);
  expect(response.json.data).toMatchObject({ active: true, failingSince: null, disabledReason: null, disabledAt: null });
  return response.json.data.id as string;
}

/** Sends a test event and waits for its one attempt; the attempt. */
async function testAttempt(apiKey: string, subscriptionId: string): Promise<{ at: string; error: string | null }> {
  const sent = await client.post(`/v1/webhooks/${subscriptionId}/test`, undefined, { apiKey });
  expect(sent.status, sent.text).toBe(202);
  const deliveryId = sent.json.data.deliveryId as string;
  return vi.waitFor(
    async () => {
      const delivery = (await client.get(`/v1/webhooks/${subscriptionId}/deliveries/${deliveryId}`, { apiKey })).json.data;
      if (delivery.status === 'pending') throw new Error('still pending');
      return delivery.attempts[0];
    },
    { timeout: 20_000, interval: 100 },
  );
}

const subscription = async (apiKey: string, id: string) => (await client.get(`/v1/webhooks/${id}`, { apiKey })).json.data;

/** A loopback port nothing listens on: connections are refused at once. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('webhook endpoint health', () => {
  it('marks a subscription failing from its first failed delivery, keeps that time through more failures, and clears it when one is delivered', async () => {
    const agent = await registerUnlimited(client, 'buyer');
    const path = unique();
    receiver.on(path, { status: 500 });
    const id = await subscribe(agent.apiKey, receiver.url(path), ['order.created']);
    const first = await testAttempt(agent.apiKey, id);
    expect(first.error).toBe('non-2xx');
    await vi.waitFor(async () => expect((await subscription(agent.apiKey, id)).failingSince).toBe(first.at), { timeout: 10_000, interval: 100 });
    expect((await testAttempt(agent.apiKey, id)).error).toBe('non-2xx');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await subscription(agent.apiKey, id)).toMatchObject({ active: true, failingSince: first.at, disabledReason: null });
    receiver.on(path, { status: 204 });
    expect((await testAttempt(agent.apiKey, id)).error).toBeNull();
    await vi.waitFor(async () => expect((await subscription(agent.apiKey, id)).failingSince).toBeNull(), { timeout: 10_000, interval: 100 });
  });

  it('disables a subscription whose deliveries all failed for the period, tells the agent, and PATCH active: true turns it back on', { timeout: 90_000 }, async () => {
    const agent = await registerUnlimited(client, 'seller');
    const watching = unique();
    const watcherId = await subscribe(agent.apiKey, receiver.url(watching), ['*']);
    const failingUrl = `http://127.0.0.1:${await closedPort()}/hook`;
    const id = await subscribe(agent.apiKey, failingUrl, ['feed.completed']);

    const first = await testAttempt(agent.apiKey, id);
    expect(first.error).toBe('connection-refused');
    await vi.waitFor(async () => expect((await subscription(agent.apiKey, id)).failingSince).toBe(first.at), { timeout: 10_000, interval: 100 });
    // Not yet: a failure within the period leaves it on.
    expect((await testAttempt(agent.apiKey, id)).error).toBe('connection-refused');
    expect(await subscription(agent.apiKey, id)).toMatchObject({ active: true, failingSince: first.at });

    // Failing for the whole period: the next failure disables it.
    const wait = Date.parse(first.at) + DISABLE_AFTER_MS + 500 - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
    expect((await testAttempt(agent.apiKey, id)).error).toBe('connection-refused');
    const disabled = await vi.waitFor(
      async () => {
        const read = await subscription(agent.apiKey, id);
        if (read.active) throw new Error('still active');
        return read;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(disabled).toMatchObject({ active: false, disabledReason: 'deliveries-failing', failingSince: first.at, disabledAt: expect.any(String) });
    expect(Date.parse(disabled.disabledAt) - Date.parse(first.at)).toBeGreaterThanOrEqual(DISABLE_AFTER_MS);

    // The agent hears of it in its events feed, and at its other subscription, as the same event.
    const listed = await vi.waitFor(
      async () => {
        const page = (await client.get('/v1/events?type=webhook.disabled', { apiKey: agent.apiKey })).json.data;
        if (page.items.length === 0) throw new Error('no webhook.disabled yet');
        return page.items;
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      type: 'webhook.disabled',
      timestamp: disabled.disabledAt,
      data: { subscriptionId: id, agentId: agent.agentId, url: failingUrl, failingSince: first.at },
    });
    const [delivered] = await receiver.waitFor(watching, 1);
    expect(JSON.parse(delivered!.body)).toMatchObject({ id: listed[0].id, type: 'webhook.disabled' });
    expect(await subscription(agent.apiKey, watcherId)).toMatchObject({ active: true, failingSince: null });

    // Disabled, it takes no test event; turned back on, it starts afresh.
    expectError(await client.post(`/v1/webhooks/${id}/test`, undefined, { apiKey: agent.apiKey }), 409, 'conflict');
    const enabled = await client.patch(`/v1/webhooks/${id}`, { active: true }, { apiKey: agent.apiKey });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.json.data).toMatchObject({ active: true, failingSince: null, disabledReason: null, disabledAt: null });
    // Turned off by its owner, it says so.
    const off = await client.patch(`/v1/webhooks/${id}`, { active: false }, { apiKey: agent.apiKey });
    expect(off.json.data).toMatchObject({ active: false, disabledReason: 'manual', disabledAt: expect.any(String) });
  });
});
