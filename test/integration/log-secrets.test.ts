// Nothing secret in what the functions write: requests that carry API keys (Authorization headers,
// keys in other headers and bodies), webhook secrets and request bodies, answers that carry keys and
// secrets, refusals and unhandled errors, run through the deployed handlers at level DEBUG with
// Powertools' EMF metrics switched on, and every byte written to standard output and error is searched
// for them. The same requests also show that the logs carry the Lambda context and the metrics their
// namespace and dimensions.
import { describe, expect, it } from 'vitest';
import { invoke } from '../support/invoke.ts';
import { captureOutput, loadWithEnv } from '../support/log-capture.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct } from '../support/trade.ts';

const WEBHOOK_SECRET = 'whsec-test-0123456789-very-secret';
const BODY_SECRET = 'a-password-in-a-request-body-4711';

/** The handlers, loaded afresh: logging at DEBUG, EMF metrics written (the suite has both off). */
const handlers = () =>
  loadWithEnv({ LOG_LEVEL: 'DEBUG', POWERTOOLS_METRICS_DISABLED: 'false' }, async () => ({
    register: (await import('../../functions/agents/register.ts')).handler,
    getMe: (await import('../../functions/agents/get-me.ts')).handler,
    rotateKey: (await import('../../functions/agents/rotate-key.ts')).handler,
    createWebhook: (await import('../../functions/webhooks/create.ts')).handler,
    negotiate: (await import('../../functions/negotiate/start.ts')).handler,
    accept: (await import('../../functions/negotiate/accept.ts')).handler,
    createOrder: (await import('../../functions/create-order/run.ts')).handler,
  }));

describe('what the functions write', () => {
  it('never holds an API key, an Authorization header, a webhook secret or a request body, and carries the Lambda context and the metrics', async () => {
    const listing = await listProduct(newClient()); // a seller with one offer, through the running stack
    const fn = await handlers();
    const keys: string[] = [listing.seller.apiKey];
    const sourceIp = `198.18.200.${Math.floor(Math.random() * 250) + 1}`;
    const { stdout, stderr } = await captureOutput(async () => {
      const registered = await invoke(fn.register, '/v1/agents/register', {
        sourceIp,
        headers: { 'Idempotency-Key': `secrets-${Date.now()}` },
        body: { name: 'Secrets test', role: 'buyer', organization: { legalName: 'Acme', country: 'DE' }, contactEmail: 'secrets@acme.example' },
      });
      expect(registered.status).toBe(201);
      const buyerKey = registered.json.data.apiKey as string;
      keys.push(buyerKey);
      expect((await invoke(fn.getMe, '/v1/agents/me', { apiKey: buyerKey, sourceIp })).status).toBe(200);
      // A key where no key belongs, and a wrong key: refused, and not written down either.
      const misplaced = await invoke(fn.getMe, '/v1/agents/me', { headers: { 'x-api-key': buyerKey, authorization: `Basic ${Buffer.from(`user:${BODY_SECRET}`).toString('base64')}` }, sourceIp });
      expect(misplaced.status).toBe(401);
      const wrongKey = `${buyerKey.slice(0, -4)}XXXX`;
      keys.push(wrongKey);
      expect((await invoke(fn.getMe, '/v1/agents/me', { apiKey: wrongKey, sourceIp })).status).toBe(401);

      const hook = await invoke(fn.createWebhook, '/v1/webhooks', { apiKey: buyerKey, sourceIp, body: { url: 'https://hooks.example.com/in', events: ['*'], secret: WEBHOOK_SECRET } });
      expect(hook.status).toBe(201);
      const refused = await invoke(fn.createWebhook, '/v1/webhooks', { apiKey: buyerKey, sourceIp, body: { url: 'not a url', events: ['*'], secret: WEBHOOK_SECRET, password: BODY_SECRET } });
      expect(refused.status).toBe(422);

      // A trade: metrics for the negotiation opened and accepted and the order created.
      const started = await invoke(fn.negotiate, '/v1/negotiate', { apiKey: buyerKey, sourceIp, body: { offerId: listing.offerId, quantity: 20 } });
      expect(started.status).toBe(201);
      const sessionId = started.json.data.sessionId as string;
      expect((await invoke(fn.accept, `/v1/negotiate/${sessionId}/accept`, { apiKey: listing.seller.apiKey, sourceIp })).status).toBe(200);
      expect((await invoke(fn.createOrder, '/v1/create-order', { apiKey: buyerKey, sourceIp, body: { sessionId } })).status).toBe(201);

      const rotated = await invoke(fn.rotateKey, '/v1/agents/me/rotate-key', { apiKey: buyerKey, sourceIp });
      expect(rotated.status).toBe(200);
      keys.push(rotated.json.data.apiKey as string);
    });
    const written = stdout + stderr;

    for (const key of keys) {
      expect(written).not.toContain(key);
      expect(written).not.toContain(key.slice(8)); // the key without its mk_test_ prefix
    }
    expect(written).not.toContain(WEBHOOK_SECRET);
    expect(written).not.toContain(BODY_SECRET);
    expect(written).not.toContain(Buffer.from(`user:${BODY_SECRET}`).toString('base64'));
    expect(written.toLowerCase()).not.toContain('authorization');
    expect(written).not.toContain('hooks.example.com');

    const lines = written.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    const accessLines = lines.filter((line) => line.message === 'request');
    expect(accessLines.length).toBeGreaterThanOrEqual(9);
    for (const line of accessLines) {
      expect(line).toMatchObject({ requestId: expect.stringMatching(/^req_/), function_request_id: expect.any(String), function_name: expect.any(String) });
    }
    const emf = lines.filter((line) => line._aws);
    const metricNames = emf.flatMap((line) => line._aws.CloudWatchMetrics.flatMap((set: { Metrics: { Name: string }[] }) => set.Metrics.map((metric) => metric.Name)));
    expect(metricNames).toEqual(expect.arrayContaining(['negotiationsOpened', 'negotiationsAccepted', 'ordersCreated', 'orderValue']));
    const order = emf.find((line) => 'ordersCreated' in line);
    expect(order).toMatchObject({ service: 'agent-marketplace', stage: 'test', currency: 'USD', ordersCreated: 1, orderValue: 20_000 });
    expect(order?._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'AgentMarketplace', Dimensions: expect.arrayContaining([expect.arrayContaining(['service', 'stage'])]) });
  });
});
