// The webhook dashboard in a real headless browser (Chromium from @sparticuz/chromium, driven by
// playwright-core: test/support/browser.ts): load the page, sign in with a key, see a subscription's
// failed delivery, open it, retry it, see it delivered. The screenshot lands in test-results/. The page
// runs under its Content-Security-Policy: a violation would show up as a console error, which fails the test.
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot, watchPage } from '../support/browser.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { Receiver } from '../support/receiver.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const receiver = new Receiver();
let browser: Browser | undefined;

beforeAll(async () => {
  await receiver.start();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await receiver.stop();
});

describe('GET /dashboard', () => {
  it('is served with a Content-Security-Policy that allows no inline code but its own', async () => {
    const response = await client.get('/dashboard');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("connect-src 'self'");
    expect(response.text).toContain('<label for="key">API key</label>');
  });

  it('signs in, shows a failed delivery, retries it and shows it delivered', { timeout: 180_000 }, async () => {
    browser = await launchBrowser();
    const agent = await registerUnlimited(client, 'buyer');
    const path = '/dashboard-receiver';
    receiver.on(path, { status: 500 });
    const created = await client.post('/v1/webhooks', { url: receiver.url(path), events: ['*'], secret: 'dashboard-secret-0123456789' }, { apiKey: agent.apiKey });
    const subscriptionId = created.json.data.id as string;
    const test = await client.send('POST', `/v1/webhooks/${subscriptionId}/test`, { apiKey: agent.apiKey });
    const deliveryId = test.json.data.deliveryId as string;
    for (let i = 0; i < 100; i++) {
      const delivery = await client.get(`/v1/webhooks/${subscriptionId}/deliveries/${deliveryId}`, { apiKey: agent.apiKey });
      if (delivery.json.data.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    receiver.on(path, { status: 200 });

    const page = await browser.newPage();
    const watch = watchPage(page, inject('baseUrl'));
    await page.goto(`${inject('baseUrl')}/dashboard`);
    await page.getByLabel('API key').fill(agent.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectText(page.locator('#subscriptions'), receiver.url(path));
    await expectText(page.locator('#subscriptions'), '1 failed');
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByLabel('Show').selectOption('failed');
    await expectText(page.locator('#deliveries'), 'webhook.test');
    await page.getByRole('button', { name: 'Open' }).click();
    await expectText(page.locator('#delivery-status'), 'failed');
    await expectText(page.locator('#attempts'), 'non-2xx');
    await expectText(page.locator('#payload'), '"type": "webhook.test"');
    await page.getByRole('button', { name: 'Retry now' }).click();
    await expectText(page.locator('#delivery-status'), 'delivered', 20_000);
    expect(await page.locator('#attempts tr').count()).toBe(2);
    // The key stays in this tab's session storage, nowhere else.
    expect(await page.evaluate('[sessionStorage.length, localStorage.length, document.cookie]')).toEqual([1, 0, '']);
    await screenshot(page, 'dashboard', { fullPage: true });
    expect(watch.problems).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
    expect(receiver.at(path)).toHaveLength(2);
  });
});

async function expectText(locator: Locator, text: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const content = (await locator.textContent()) ?? '';
    if (content.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`Expected "${text}" in ${await locator.getAttribute('id')}: ${content}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
