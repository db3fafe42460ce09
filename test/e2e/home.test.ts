// GET /, the front door: JSON links for agents and tools, a short page for browsers, and the RFC 8631
// Link header on both. Every link it gives that the route table serves answers; the two that other
// parts of the API add (llms.txt and the MCP endpoint) are the only ones allowed to be missing from it.
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { routeList } from '../../functions/registry.ts';
import { launchBrowser, screenshot, watchPage } from '../support/browser.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

describe('GET /', () => {
  it('answers JSON links by default: to the reference, the OpenAPI document, llms.txt and the MCP endpoint', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const response = await client.get('/', accept ? { headers: { accept } } : {});
      expect(response.status, String(accept)).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.json.meta.requestId).toMatch(/^req_/);
      const { links } = response.json.data;
      expect(links.docs).toMatchObject({ href: '/docs', method: 'GET' });
      expect(links.openapi).toMatchObject({ href: '/v1/openapi.json', method: 'GET' });
      expect(links.llmsTxt).toMatchObject({ href: '/llms.txt', method: 'GET' });
      expect(links.mcp).toMatchObject({ href: '/mcp', method: 'POST' });
    }
  });

  it('names the description, the reference and the status in a Link header, varies on Accept, and is not rate limited', async () => {
    const response = await client.get('/');
    expect(response.headers.link).toBe('</v1/openapi.json>; rel="service-desc"; type="application/json", </docs>; rel="service-doc"; type="text/html", </health>; rel="status"');
    expect(response.headers.vary).toBe('Accept');
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    // A key, even a bad one, changes nothing: the front door is public.
    const withKey = await client.get('/', { headers: { authorization: 'Bearer mk_test_nope' } });
    expect(withKey.status).toBe(200);
  });

  it('leads only to routes the API serves, besides llms.txt and the MCP endpoint, and each GET link answers', async () => {
    const links = Object.values((await client.get('/')).json.data.links as Record<string, { href: string; method: string }>);
    const served = links.filter((link) => routeList.some((route) => route.method === link.method && route.path === link.href));
    const notYetServed = links.filter((link) => !served.includes(link)).map((link) => `${link.method} ${link.href}`);
    expect(['GET /llms.txt', 'POST /mcp']).toEqual(expect.arrayContaining(notYetServed));
    for (const link of served.filter((candidate) => candidate.method === 'GET')) {
      expect((await client.get(link.href)).status, link.href).toBe(200);
    }
  });

  it('is a short web page for a browser, with no script, and the same links', async () => {
    const response = await client.get('/', { headers: { accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(response.headers['content-security-policy']).not.toContain('script-src');
    expect(response.text).not.toContain('<script');
    for (const href of ['/docs', '/v1/openapi.json', '/llms.txt', '/dashboard', '/health']) expect(response.text).toContain(`<a href="${href}">`);
    expect(response.text).toContain('<code>POST /mcp</code>');
  });

  it('renders in a browser without a console error, and its reference link opens /docs', { timeout: 180_000 }, async () => {
    browser = await launchBrowser();
    const baseUrl = inject('baseUrl');
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const watch = watchPage(page, baseUrl);
    await page.goto(`${baseUrl}/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Agent Marketplace API');
    await screenshot(page, 'home-phone', { fullPage: true });
    await page.getByRole('link', { name: '/docs' }).click();
    await page.waitForURL(`${baseUrl}/docs`);
    expect(watch.problems).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });
});
