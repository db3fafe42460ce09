// GET /docs, the API reference: its headers and files over HTTP, then the page in a real browser
// (test/support/browser.ts). What the page must show is read from the served OpenAPI document, so the
// test follows the document as it grows: every tag, every operation (by summary and operationId),
// every webhook event when the document has a `webhooks` section. The page must load nothing from
// another origin and log no error (a Content-Security-Policy violation is one). Screenshots at desktop
// and phone widths land in test-results/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { launchBrowser, screenshot, watchPage } from '../support/browser.ts';
import { REPOSITORY_ROOT } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

interface DocumentedOperation {
  operationId?: string;
  summary?: string;
  tags?: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The operations of a `paths` or `webhooks` object, each with the key it is under. */
function operationsOf(items: Record<string, Record<string, unknown>> | undefined): (DocumentedOperation & { key: string })[] {
  return Object.entries(items ?? {}).flatMap(([key, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([, operation]) => ({ ...(operation as DocumentedOperation), key })),
  );
}

/**
 * The entries of the `webhooks` section: an inline POST, or a reference to a shared POST
 * (components.pathItems) that carries the entry's own summary and description.
 */
function webhookEntriesOf(items: Record<string, Record<string, unknown>> | undefined): { key: string; summary?: string }[] {
  return Object.entries(items ?? {}).flatMap(([key, item]) =>
    typeof item.$ref === 'string' ? [{ key, summary: item.summary as string | undefined }] : operationsOf({ [key]: item }).map((operation) => ({ key, summary: operation.summary })),
  );
}

async function assetUrls(): Promise<string[]> {
  const page = await client.get('/docs');
  return [...page.text.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((match) => match[1]!);
}

/** Whitespace as the browser's innerText gives it: runs of spaces and newlines become one space. */
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('GET /docs', () => {
  it('is an HTML page under a strict Content-Security-Policy, with a fresh style nonce each time', async () => {
    const [first, second] = [await client.get('/docs'), await client.get('/docs')];
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = first.headers['content-security-policy']!;
    const directives = Object.fromEntries(csp.split(';').map((directive) => { const [name, ...values] = directive.trim().split(/\s+/); return [name, values.join(' ')]; }));
    expect(directives).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'img-src': "'self' data:",
      'font-src': "'self' data:",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const nonce = /'nonce-([^']+)'/.exec(directives['style-src'])?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(first.text).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
    expect(second.headers['content-security-policy']).not.toBe(csp);
    // No inline script: the page's only scripts are files of the API itself.
    expect(first.text).not.toMatch(/<script(?![^>]*\bsrc="\/docs\/assets\/)[^>]*>/);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    // No key and no rate limit.
    expect(first.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('serves its files brotli- or gzip-compressed as accepted, cacheable for a year, with 304 on a known ETag', async () => {
    const urls = await assetUrls();
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const url of urls) {
      const plain = await client.get(url, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.status, url).toBe(200);
      expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.vary).toBe('Accept-Encoding');

      // A browser's Accept-Encoding: brotli is preferred to gzip when both are accepted.
      const br = await client.get(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
      const gzip = await client.get(url, { headers: { 'accept-encoding': 'gzip;q=1, br;q=0.5' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.bytes).equals(plain.bytes)).toBe(true);

      const revalidated = await client.get(url, { headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.bytes.byteLength).toBe(0);
      // Another encoding's ETag does not match this one.
      expect((await client.get(url, { headers: { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! } })).status).toBe(200);
    }
  });

  it('answers an unknown file with the contract’s 404', async () => {
    expectError(await client.get('/docs/assets/redoc-0.0.0.0000000000.js'), 404, 'not-found');
  });

  it('shows every tag, operation and webhook of the served document, finds an operation by search, and stays on its own origin', { timeout: 240_000 }, async () => {
    const document = (await client.get('/v1/openapi.json')).json;
    const operations = operationsOf(document.paths);
    const webhooks = webhookEntriesOf(document.webhooks);
    expect(webhooks.map((webhook) => webhook.key).sort()).toEqual(Object.keys(document.webhooks ?? {}).sort());
    const tags = [...new Set(operations.flatMap((operation) => operation.tags ?? []))];
    expect(operations.length).toBeGreaterThan(30);

    browser = await launchBrowser();
    const baseUrl = inject('baseUrl');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const watch = watchPage(page, baseUrl);
    await page.goto(`${baseUrl}/docs`);
    const menu = page.locator('[data-component-name="Menu/Menu"]');
    await menu.waitFor({ timeout: 60_000 });
    await screenshot(page, 'docs-desktop');

    // The sidebar: one group per tag (Redoc opens one group at a time; open each and read its entries).
    const entries = await sidebarEntries(page);
    const labels = entries.map((entry) => entry.label);
    expect(labels).toEqual(expect.arrayContaining(tags));
    for (const operation of operations) {
      // `#/<tag>/<operationId, lowercased>`; a tag's own entry is `#/<tag>`.
      const entry = entries.find((candidate) => candidate.href.split('/').length === 3 && candidate.href.endsWith(`/${operation.operationId!.toLowerCase()}`));
      expect(entry, `${operation.operationId} in the sidebar`).toBeDefined();
      expect(entry!.label).toBe(normalise(operation.summary!));
    }
    for (const webhook of webhooks) {
      expect(labels, `webhook ${webhook.key} in the sidebar`).toContain(normalise(webhook.summary ?? webhook.key));
    }
    // Every entry leads to a page of its own.
    const hrefs = entries.map((entry) => entry.href);
    expect(hrefs.length - new Set(hrefs).size, `entries sharing a link: ${hrefs.filter((href, i) => hrefs.indexOf(href) !== i).join(', ')}`).toBe(0);

    // A person looking for an operation: the search box, its words, the result that is it.
    const wanted = operations.at(-1)!;
    await page.getByTestId('search-trigger').click();
    await page.getByPlaceholder('Search docs...').fill(wanted.summary!);
    const result = page.locator(`[data-component-name="Search/SearchItem"][href$="/${wanted.operationId!.toLowerCase()}"]`);
    await result.first().click();
    await page.waitForURL((url) => url.hash.endsWith(`/${wanted.operationId!.toLowerCase()}`));
    await inViewport(page.getByRole('heading', { name: normalise(wanted.summary!) }).first());
    await screenshot(page, 'docs-operation');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/docs`);
    const title = page.getByRole('heading', { name: document.info.title as string }).first();
    await title.waitFor({ timeout: 60_000 });
    await screenshot(page, 'docs-phone');
    // The title shows the package's version and breaks only between words; nothing names a placeholder address.
    const version = (JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(document.info.version).toBe(version);
    expect(normalise(await title.innerText())).toBe(`${document.info.title as string} (${version})`);
    // Runs in the page: the words of the title whose letters lie on more than one line (broken inside the word).
    const splitWords = await title.evaluate((element) => {
      const text = element.firstChild;
      if (!text || text.nodeType !== 3) return ['(no text)'];
      const split: string[] = [];
      for (const match of (text.textContent ?? '').matchAll(/\S+/g)) {
        const range = element.ownerDocument.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) split.push(match[0]);
      }
      return split;
    });
    expect(splitWords).toEqual([]);
    expect(await page.locator('body').innerText()).not.toMatch(/\.example\b/);
    // The floating menu button covers no text: it sits right of every line of the page's text column.
    const button = await page.getByTestId('floating-button').boundingBox();
    const textRight = await page.locator('.api-content p, .api-content li, .api-content h1, .api-content h2').evaluateAll((elements) =>
      Math.max(...elements.map((element) => element.getBoundingClientRect()).filter((box) => box.width > 0 && box.left < 390).map((box) => box.right)),
    );
    expect(button).not.toBeNull();
    expect(button!.x).toBeGreaterThanOrEqual(textRight);

    expect(watch.problems).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
    expect(watch.requests.some((url) => url.endsWith('/v1/openapi.json'))).toBe(true);
  });
});

/** Opens every group of the sidebar in turn and returns every entry seen: its label and link. */
async function sidebarEntries(page: Page): Promise<{ label: string; href: string }[]> {
  const menu = page.locator('[data-component-name="Menu/Menu"]');
  const groups = menu.locator('.menu-item-type-group > a');
  const seen = new Map<string, { label: string; href: string }>();
  const collect = async () => {
    // Runs in the page: each link's target and the text of its label.
    const found: { href: string; label: string }[] = await menu.locator('a').evaluateAll((links) =>
      links.map((link) => ({ href: link.getAttribute('href') ?? '', label: (link.querySelector('[data-text]') as { innerText: string } | null)?.innerText ?? '' })),
    );
    for (const entry of found) seen.set(`${entry.href} ${entry.label}`, { href: entry.href, label: entry.label.replace(/\s+/g, ' ').trim() });
  };
  await collect();
  const count = await groups.count();
  for (let index = 0; index < count; index++) {
    const group = groups.nth(index);
    const href = (await group.getAttribute('href')) ?? '';
    await group.click();
    await menu.locator(`a[href^="${href}/"]`).first().waitFor({ state: 'visible', timeout: 10_000 });
    await collect();
  }
  return [...seen.values()];
}

/** Waits until the element is on screen: Redoc scrolls to an operation and renders it as it arrives. */
async function inViewport(locator: Locator, timeoutMs = 20_000): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: timeoutMs });
  const viewport = locator.page().viewportSize()!;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const box = await locator.boundingBox();
    if (box && box.y >= 0 && box.y + box.height <= viewport.height) return;
    if (Date.now() > deadline) throw new Error(`${String(locator)} did not come into view`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
