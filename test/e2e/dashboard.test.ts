// The dashboard in a real headless browser (Chromium from @sparticuz/chromium, driven by
// playwright-core: test/support/browser.ts), at a phone's width (390 px) and a desktop's.
// Webhooks: sign in with a key, see two subscriptions with a failed delivery each, open one delivery,
// switch to the other subscription and open its delivery (the panel shows the new one, never the
// previous), read the payload byte for byte as it was signed, retry it and see it delivered.
// Approvals: the main key sees the orders its program placed over the key's approval limit, with the
// key, totals and expiry, approves one (the seller then has it) and declines the other; the program's
// own key is told to sign in with the main key.
// Requests: the key's request log newest first, narrowed to client errors and by path prefix, an error
// opened to the body it answered.
// RFQs: a buyer's requests for quotes with their status, closing time and sellers reached; one opened to
// its quotes best first, the best awarded (an accepted session), the others declined; a seller has no
// such view. At every step the page must not scroll sideways.
// Screenshots land in test-results/. The page runs under its Content-Security-Policy: a violation would
// show up as a console error, which fails the test.
import { randomBytes } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot, watchPage } from '../support/browser.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { Receiver } from '../support/receiver.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct, negotiate } from '../support/trade.ts';

const client = newClient();
const receiver = new Receiver();
let browser: Browser;

// Launching Chromium (and unpacking it on the machine's first run) takes seconds, many more when the machine is busy.
beforeAll(async () => {
  await receiver.start();
  browser = await launchBrowser();
}, 180_000);
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

  for (const viewport of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 900 },
  ]) {
    it(`at ${viewport.name} width (${viewport.width} px): switches between subscriptions’ deliveries, shows the exact payload, retries, never scrolls sideways`, { timeout: 180_000 }, async () => {
      const agent = await registerUnlimited(client, 'buyer');
      // Long paths, like a receiver behind a gateway: the URLs must wrap, not widen the page.
      const paths = ['orders', 'catalog'].map((name) => `/dashboard-${viewport.name}/${name}/webhooks-receiver-for-the-procurement-agent-${'x'.repeat(40)}`);
      const subscriptions: { id: string; url: string; deliveryId: string }[] = [];
      for (const path of paths) {
        receiver.on(path, { status: 500 });
        const created = await client.post('/v1/webhooks', { url: receiver.url(path), events: ['*'], secret: 'dashboard-secret-0123456789' }, { apiKey: agent.apiKey });
        expect(created.status).toBe(201);
        const test = await client.send('POST', `/v1/webhooks/${created.json.data.id}/test`, { apiKey: agent.apiKey });
        expect(test.status).toBe(202);
        subscriptions.push({ id: created.json.data.id as string, url: receiver.url(path), deliveryId: test.json.data.deliveryId as string });
      }
      // A test event is one attempt, no retries: each ends `failed` once the receiver has answered 500.
      const payloads: string[] = [];
      for (const subscription of subscriptions) {
        const path = `/v1/webhooks/${subscription.id}/deliveries/${subscription.deliveryId}`;
        await expect.poll(async () => (await client.get(path, { apiKey: agent.apiKey })).json.data.status, { timeout: 60_000, interval: 100 }).toBe('failed');
        payloads.push((await client.get(path, { apiKey: agent.apiKey })).json.data.payload as string);
      }
      const [first, second] = subscriptions as [(typeof subscriptions)[0], (typeof subscriptions)[0]];

      const page = await browser.newPage({ viewport: { width: viewport.width, height: viewport.height } });
      const watch = watchPage(page, inject('baseUrl'));
      await page.goto(`${inject('baseUrl')}/dashboard`);
      await expectNoSidewaysScroll(page, 'sign-in');
      await page.getByLabel('API key').fill(agent.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expectText(page.locator('#status'), '2 subscriptions.');
      for (const subscription of subscriptions) {
        const row = subscriptionRow(page, subscription.url);
        await expectText(row, subscription.url);
        await expectText(row, '0 delivered, 0 pending, 1 failed');
      }
      await expectNoSidewaysScroll(page, 'subscriptions');

      // The first subscription's failed delivery, opened.
      await subscriptionRow(page, first.url).getByRole('button', { name: 'Deliveries' }).click();
      await expectText(page.locator('#deliveries-title'), first.url);
      await page.getByLabel('Show').selectOption('failed');
      await expectText(page.locator('#status'), '1 delivery failed.');
      await page.locator('#deliveries').getByRole('button', { name: 'Open' }).click();
      await expectText(page.locator('#delivery-title'), first.deliveryId);
      await expectText(page.locator('#attempts'), 'non-2xx');
      await expectNoSidewaysScroll(page, 'first delivery');

      // Another subscription: the first one's delivery is no longer shown, then the second one's is.
      await subscriptionRow(page, second.url).getByRole('button', { name: 'Deliveries' }).click();
      await expectText(page.locator('#deliveries-title'), second.url);
      await expect.poll(() => page.locator('#delivery-panel').isHidden()).toBe(true);
      await expectText(page.locator('#deliveries'), 'webhook.test');
      await page.locator('#deliveries').getByRole('button', { name: 'Open' }).click();
      await expectText(page.locator('#delivery-title'), second.deliveryId);
      expect(await page.locator('#delivery-panel').textContent()).not.toContain(first.deliveryId);

      // The payload is the exact text that was signed and sent, not re-indented; its size in human units.
      await expect.poll(() => page.locator('#payload').textContent()).toBe(payloads[1]);
      expect(payloads[1]).toContain('"type":"webhook.test"');
      const bytes = Buffer.byteLength(payloads[1]!, 'utf8');
      expect(await page.locator('#payload-size').textContent()).toBe(`${bytes.toLocaleString('en-US')} bytes`);
      await expectNoSidewaysScroll(page, 'second delivery');

      receiver.on(new URL(second.url).pathname, { status: 200 });
      await page.getByRole('button', { name: 'Retry now' }).click();
      // The page polls the retried delivery for up to 30 s before it shows what it found.
      await expectText(page.locator('#delivery-status'), 'delivered', 45_000);
      await expect.poll(() => page.locator('#attempts tr').count()).toBe(2);
      await expectText(page.locator('#status'), 'Retried: the delivery is delivered.');
      await expectText(subscriptionRow(page, second.url), '1 delivered, 0 pending, 0 failed');
      await expectText(subscriptionRow(page, first.url), '0 delivered, 0 pending, 1 failed');
      await expectNoSidewaysScroll(page, 'retried delivery');
      // The key stays in this tab's session storage, nowhere else.
      expect(await page.evaluate('[sessionStorage.length, localStorage.length, document.cookie]')).toEqual([1, 0, '']);
      // Counts are words, never "delivery(ies)" or "subscription(s)".
      expect(await page.locator('body').innerText()).not.toMatch(/\((s|ies)\)/);
      await screenshot(page, `dashboard-${viewport.name}`, { fullPage: true });
      // Signing out forgets what this agent's key showed: another key signing in sees none of it.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expectText(page.locator('#status'), 'Signed out.');
      expect(await page.locator('#app').textContent()).not.toContain(second.deliveryId);
      expect(await page.locator('#app').textContent()).not.toContain(first.url);
      expect(watch.problems).toEqual([]);
      expect(watch.foreignRequests).toEqual([]);
      expect(receiver.at(new URL(first.url).pathname)).toHaveLength(1);
      expect(receiver.at(new URL(second.url).pathname)).toHaveLength(2);
      await page.close();
    });
  }
});

describe('the Approvals view', () => {
  for (const viewport of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 900 },
  ]) {
    it(`at ${viewport.name} width (${viewport.width} px): the main key approves one order and declines another; the program’s key cannot`, { timeout: 180_000 }, async () => {
      const listing = await listProduct(client, { price: { amount: 10000, currency: 'EUR' }, availableQuantity: 100, minOrderQuantity: 1, autoAcceptUnitPrice: { amount: 10000, currency: 'EUR' } });
      const owner = await registerUnlimited(client, 'buyer');
      const key = await client.post('/v1/agents/me/keys', {
        name: 'Reorder bot for the Cologne plant’s safety stock',
        scopes: ['negotiations:write', 'orders:write'],
        limits: { spendPerDay: { amount: 100000, currency: 'EUR' }, approvalAbove: { amount: 20000, currency: 'EUR' } },
      }, { apiKey: owner.apiKey });
      expect(key.status, key.text).toBe(201);
      const program = key.json.data.apiKey as string;
      const orderIds: string[] = [];
      for (const quantity of [3, 4]) {
        const session = await negotiate(client, program, { offerId: listing.offerId, quantity });
        const placed = await client.post('/v1/create-order', { sessionId: session.json.data.sessionId }, { apiKey: program });
        expect(placed.json.data.status, placed.text).toBe('awaiting_approval');
        orderIds.push(placed.json.data.orderId as string);
      }
      const [first, second] = orderIds as [string, string];

      const page = await browser.newPage({ viewport: { width: viewport.width, height: viewport.height } });
      const watch = watchPage(page, inject('baseUrl'));
      await page.goto(`${inject('baseUrl')}/dashboard`);
      await page.getByLabel('API key').fill(owner.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expectText(page.locator('#approvals-status'), '2 orders awaiting approval.');
      const row = (orderId: string) => page.locator('#approvals tr').filter({ hasText: orderId });
      await expectText(row(first), 'Reorder bot for the Cologne plant’s safety stock');
      await expectText(row(first), '300.00\u00a0EUR');
      await expectText(row(first), '3 × 100.00\u00a0EUR');
      await expectText(row(second), '400.00\u00a0EUR');
      // Its approval expires 72 h after it was placed: a little less by now.
      await expect.poll(async () => (await row(second).textContent()) ?? '').toMatch(/\(in (72 h|71 h \d+ min)\)/);
      await expectNoSidewaysScroll(page, 'approvals');
      await screenshot(page, `dashboard-approvals-${viewport.name}`, { fullPage: true });

      await row(first).getByRole('button', { name: 'Approve' }).click();
      await expectText(page.locator('#approvals-status'), `Approved ${first} (300.00\u00a0EUR): the seller has it now.`);
      await expect.poll(() => row(first).count()).toBe(0);
      expect((await client.get(`/v1/orders/${first}`, { apiKey: listing.seller.apiKey })).json.data.status).toBe('pending');

      await page.getByLabel('Reason for a decline (optional)').fill('Over this week’s plan');
      await row(second).getByRole('button', { name: 'Decline' }).click();
      await expectText(page.locator('#approvals-status'), `Declined ${second}: its stock and spend are released.`);
      await expect.poll(() => page.locator('#no-approvals').isVisible()).toBe(true);
      expect((await client.get(`/v1/orders/${second}`, { apiKey: owner.apiKey })).json.data).toMatchObject({ status: 'declined', approval: { reason: 'Over this week’s plan' } });
      await expectNoSidewaysScroll(page, 'approvals decided');

      // The program's own key: the view says who may decide, and offers nothing to click.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').fill(program);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expectText(page.locator('#approvals-status'), 'sign in with it to approve or decline');
      expect(await page.locator('#approvals-panel').getByRole('button', { name: 'Approve' }).count()).toBe(0);
      await expectText(page.locator('#status'), 'needs webhooks:read');
      await expectText(page.locator('#rfqs-status'), 'it needs rfqs:read');
      expect(await page.locator('#rfqs-table').isHidden()).toBe(true);
      await expectNoSidewaysScroll(page, 'restricted key');
      // The browser logs the three 403s the page asked for (may this key decide? read webhooks? read RFQs?); nothing else.
      expect(watch.problems.filter((problem) => !problem.includes('status of 403'))).toEqual([]);
      expect(watch.problems.length).toBeLessThanOrEqual(3);
      expect(watch.foreignRequests).toEqual([]);
      await page.close();
    });
  }
});

describe('the Requests view', () => {
  for (const viewport of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 900 },
  ]) {
    it(`at ${viewport.name} width (${viewport.width} px): the key’s requests newest first, filtered to errors and by path, an error opened to its body`, { timeout: 180_000 }, async () => {
      const agent = await registerUnlimited(client, 'buyer');
      // A long path, as a mistyped id makes: it must wrap, not widen the page.
      const missing = `/v1/orders/ord_${'z'.repeat(60)}`;
      const notFound = await client.get(missing, { apiKey: agent.apiKey });
      expect(notFound.status).toBe(404);
      const invalid = await client.send('POST', '/v1/webhooks', { apiKey: agent.apiKey, body: { url: 'not a url', events: ['*'], secret: 'a-secret-of-16-or-more' }, headers: { 'idempotency-key': `dashboard-${viewport.name}` } });
      expect(invalid.status).toBe(422);
      const invalidId = invalid.headers['x-request-id'] as string;
      const notFoundId = notFound.headers['x-request-id'] as string;
      // Entries land a moment after their responses.
      for (const requestId of [notFoundId, invalidId]) {
        await expect.poll(async () => (await client.get(`/v1/requests/${requestId}`, { apiKey: agent.apiKey })).status, { timeout: 15_000 }).toBe(200);
      }

      const page = await browser.newPage({ viewport: { width: viewport.width, height: viewport.height } });
      const watch = watchPage(page, inject('baseUrl'));
      await page.goto(`${inject('baseUrl')}/dashboard`);
      await page.getByLabel('API key').fill(agent.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const row = (requestId: string) => page.locator('#requests tr').filter({ hasText: requestId });
      await expectText(row(invalidId), 'POST /v1/webhooks');
      await expectText(row(invalidId), '422 validation/invalid');
      await expectText(row(notFoundId), `GET ${missing}`);
      await expectText(row(notFoundId), '404 not-found');
      // Newest first: the failed subscription was asked for after the missing order.
      const ids = await page.locator('#requests tr').evaluateAll((rows) => rows.map((tr) => (tr as HTMLElement).dataset.requestId));
      expect(ids.indexOf(invalidId)).toBeLessThan(ids.indexOf(notFoundId));
      expect(ids.indexOf(invalidId)).toBeGreaterThanOrEqual(0);
      await expectNoSidewaysScroll(page, 'requests');

      // Client errors only: the two failures, none of the successes (the sign-in's own reads).
      await page.getByLabel('Status', { exact: true }).selectOption('4xx');
      await expectText(page.locator('#requests-status'), '2 requests.');
      expect(await page.locator('#requests tr').count()).toBe(2);
      // A path prefix narrows it further.
      await page.getByLabel('Path starts with').fill('/v1/orders');
      await page.locator('#requests-form').getByRole('button', { name: 'Filter' }).click();
      await expectText(page.locator('#requests-status'), '1 request.');
      await expectText(page.locator('#requests'), notFoundId);
      await page.getByLabel('Path starts with').fill('/v1/nothing-here');
      await page.locator('#requests-form').getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => page.locator('#no-requests').isVisible()).toBe(true);
      await page.getByLabel('Path starts with').fill('');
      await page.locator('#requests-form').getByRole('button', { name: 'Filter' }).click();
      await expectText(page.locator('#requests-status'), '2 requests.');

      // An error opens to the body the API answered, with its details' paths.
      await row(invalidId).getByRole('button', { name: 'Error body' }).click();
      await expectText(page.locator('#request-error-title'), 'POST /v1/webhooks → 422');
      const shown = JSON.parse((await page.locator('#request-error').textContent()) ?? '{}');
      expect(shown).toMatchObject({ code: 'validation/invalid', status: 422, requestId: invalidId, details: expect.arrayContaining([expect.objectContaining({ path: 'url' })]) });
      expect(shown).toEqual(invalid.json);
      await expectNoSidewaysScroll(page, 'request error');
      await screenshot(page, `dashboard-requests-${viewport.name}`, { fullPage: true });

      // Signing out forgets the log shown.
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect(await page.locator('#app').textContent()).not.toContain(invalidId);
      expect(await page.locator('#request-error-panel').isHidden()).toBe(true);
      expect(await page.locator('#requests-path').inputValue()).toBe('');
      expect(watch.problems).toEqual([]);
      expect(watch.foreignRequests).toEqual([]);
      await page.close();
    });
  }
});

describe('the RFQs view', () => {
  for (const viewport of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 900 },
  ]) {
    it(`at ${viewport.name} width (${viewport.width} px): a buyer’s RFQs with status, closing and sellers; one opened to its quotes best first, the best awarded`, { timeout: 180_000 }, async () => {
      // A word no other test's catalog holds: the RFQ reaches these two sellers only.
      const word = `zq${randomBytes(4).toString('hex').replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] as string)}`;
      const [dearer, cheaper] = await Promise.all(
        [1, 2].map(() => listProduct(client, { title: `Nitrile gloves ${word}, box of 100`, category: 'safety/gloves', price: { amount: 1200, currency: 'EUR' }, shipsFrom: 'DE', availableQuantity: 500, minOrderQuantity: 1 })),
      );
      const buyer = await registerUnlimited(client, 'buyer');
      const created = await client.post('/v1/rfqs', { title: `Nitrile gloves ${word} for the Cologne plant, size M`, category: 'safety', quantity: 50, unit: 'box', currency: 'EUR', maxUnitPrice: 1200, closesAt: new Date(Date.now() + 3_600_000).toISOString() }, { apiKey: buyer.apiKey });
      expect(created.status, created.text).toBe(201);
      const rfqId = created.json.data.rfqId as string;
      await expect.poll(async () => (await client.get(`/v1/rfqs/${rfqId}`, { apiKey: buyer.apiKey })).json.data.sellerCount, { timeout: 30_000, interval: 250 }).toBe(2);
      const validUntil = new Date(Date.now() + 86_400_000).toISOString();
      const quoteIds: string[] = [];
      for (const [listing, unitPrice, message] of [
        [dearer!, 1150, `From our Düsseldorf warehouse, palletised, ${'with a long note '.repeat(6)}`],
        [cheaper!, 1100, null],
      ] as const) {
        const quoted = await client.post(`/v1/rfqs/${rfqId}/quotes`, { offerId: listing.offerId, unitPrice, quantity: 50, leadTimeDays: unitPrice === 1100 ? 5 : 3, validUntil, ...(message ? { message } : {}) }, { apiKey: listing.seller.apiKey });
        expect(quoted.status, quoted.text).toBe(201);
        quoteIds.push(quoted.json.data.quoteId as string);
      }
      const [dearerQuote, cheaperQuote] = quoteIds as [string, string];

      const page = await browser.newPage({ viewport: { width: viewport.width, height: viewport.height } });
      const watch = watchPage(page, inject('baseUrl'));
      await page.goto(`${inject('baseUrl')}/dashboard`);
      await page.getByLabel('API key').fill(buyer.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expectText(page.locator('#rfqs-status'), '1 request for quotes.');
      const rfqRow = page.locator('#rfqs tr').filter({ hasText: rfqId });
      await expectText(rfqRow, `Nitrile gloves ${word} for the Cologne plant, size M`);
      await expectText(rfqRow, '50 box at most 12.00\u00a0EUR each');
      await expectText(rfqRow, 'open');
      await expectText(rfqRow, '2 sellers');
      await expect.poll(async () => (await rfqRow.textContent()) ?? '').toMatch(/\(in (60 min|59 min|1 h)\)/);
      await expectNoSidewaysScroll(page, 'RFQs');

      // Its quotes, best first: the cheaper one above the dearer one.
      await rfqRow.getByRole('button', { name: 'Quotes' }).click();
      await expectText(page.locator('#rfq-title'), rfqId);
      await expectText(page.locator('#rfq-summary'), 'Open; 2 quotes, best first.');
      await expect.poll(() => page.locator('#quotes tr').evaluateAll((rows) => rows.map((tr) => (tr as HTMLElement).dataset.quoteId))).toEqual([cheaperQuote, dearerQuote]);
      const quoteRow = (quoteId: string) => page.locator(`#quotes tr[data-quote-id="${quoteId}"]`);
      await expectText(quoteRow(cheaperQuote), cheaper!.seller.agentId);
      await expectText(quoteRow(cheaperQuote), '11.00\u00a0EUR');
      await expectText(quoteRow(cheaperQuote), '550.00\u00a0EUR');
      await expectText(quoteRow(cheaperQuote), '5 days');
      await expectText(quoteRow(dearerQuote), '575.00\u00a0EUR');
      await expectText(quoteRow(dearerQuote), 'From our Düsseldorf warehouse');
      expect(await page.locator('#quotes').getByRole('button', { name: 'Award' }).count()).toBe(2);
      await expectNoSidewaysScroll(page, 'quotes');
      await screenshot(page, `dashboard-rfqs-${viewport.name}`, { fullPage: true });

      await quoteRow(cheaperQuote).getByRole('button', { name: 'Award' }).click();
      await expectText(page.locator('#rfqs-status'), `Awarded ${cheaperQuote} (550.00\u00a0EUR) on ${rfqId}`);
      await expectText(rfqRow, 'awarded');
      await expectText(quoteRow(cheaperQuote), 'accepted');
      await expectText(quoteRow(dearerQuote), 'declined');
      expect(await page.locator('#quotes').getByRole('button', { name: 'Award' }).count()).toBe(0);
      const awarded = (await client.get(`/v1/rfqs/${rfqId}`, { apiKey: buyer.apiKey })).json.data;
      expect(awarded).toMatchObject({ status: 'awarded', awardedQuoteId: cheaperQuote });
      await expectText(page.locator('#rfq-summary'), awarded.sessionId as string);
      await expectNoSidewaysScroll(page, 'awarded');

      // Signing out forgets the RFQs; a seller has no RFQs view here.
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect(await page.locator('#app').textContent()).not.toContain(rfqId);
      await page.getByLabel('API key').fill(cheaper!.seller.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expectText(page.locator('#who'), '(seller)');
      expect(await page.locator('#rfqs-panel').isHidden()).toBe(true);
      expect(watch.problems).toEqual([]);
      expect(watch.foreignRequests).toEqual([]);
      await page.close();
    });
  }
});

function subscriptionRow(page: Page, url: string): Locator {
  return page.locator('#subscriptions tr').filter({ hasText: url });
}

/** The document is no wider than the window: nothing makes the page scroll sideways. */
async function expectNoSidewaysScroll(page: Page, when: string): Promise<void> {
  const [scrollWidth, innerWidth] = await page.evaluate<[number, number]>('[document.scrollingElement.scrollWidth, innerWidth]');
  // What sticks out, to say in the failure: elements reaching past the window's right edge, or wider inside than they are.
  const wide = await page.evaluate<string[]>(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth || e.scrollWidth > e.clientWidth + 1).slice(0, 12).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().right) + ' px ' + e.scrollWidth + '/' + e.clientWidth)`,
  );
  expect(scrollWidth, `page width ${scrollWidth} px in a ${innerWidth} px window (${when}): ${String(wide)}`).toBeLessThanOrEqual(innerWidth);
}

async function expectText(locator: Locator, text: string, timeout = 15_000): Promise<void> {
  await expect.poll(async () => (await locator.first().textContent()) ?? '', { timeout, interval: 100 }).toContain(text);
}
