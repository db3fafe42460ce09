// Catalog helpers for end-to-end tests: sellers on a plan that polling cannot exhaust, feed uploads
// in each mode, and waiting for a feed to finish.
import { vi } from 'vitest';
import { config } from '../../shared/config.ts';
import { setAgentPlan } from '../../shared/data/agents.ts';
import { QUEUED_GRACE_MS } from '../../shared/data/feeds.ts';
import { registerAgent, type TestClient, type TestResponse } from './http-client.ts';

/** A seller (or buyer) on the enterprise plan, set before its key is first used (no cached plan). */
export async function registerUnlimited(client: TestClient, role: 'seller' | 'buyer') {
  const agent = await registerAgent(client, { role });
  await setAgentPlan(agent.agentId, 'enterprise', new Date().toISOString());
  return agent;
}

export function uploadCsv(client: TestClient, apiKey: string, csv: string | Buffer, path = '/v1/seller/feeds'): Promise<TestResponse> {
  return client.send('POST', path, { apiKey, body: csv, headers: { 'content-type': 'text/csv' } });
}

export function uploadMultipart(client: TestClient, apiKey: string, file: { name: string; content: string; type?: string }, fields: Record<string, string> = {}): Promise<TestResponse> {
  const boundary = `----feedboundary${Date.now()}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n${file.content}\r\n`);
  const body = `${parts.join('')}--${boundary}--\r\n`;
  return client.send('POST', '/v1/seller/feeds', { apiKey, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

/** What a feed record shows of its progress. */
export interface FeedProgressView {
  feedId: string;
  status: string;
  rowsTotal: number;
  [field: string]: any;
}

/**
 * How long a live feed can go without visible progress, by what processing promises: a queued feed
 * is picked up by its notification, or by the recovery sweep once QUEUED_GRACE_MS have passed; a run
 * saves a checkpoint at least every third of its lease, and a run that stops is taken over by the
 * sweep once its lease has expired. So: a lease, the grace, and a sweep interval (5 s locally), twice.
 */
export const FEED_STALL_MS = 2 * (config().FEED_LEASE_SECONDS * 1000 + QUEUED_GRACE_MS + 5_000);

/**
 * Reads the feed until `done` says so. It fails only when the feed shows no progress (its status and
 * row count unchanged) for `stallMs`, never because a slow machine took long over a large file.
 */
export async function waitForFeedProgress<F extends FeedProgressView>(read: () => Promise<F>, done: (feed: F) => boolean, options: { stallMs?: number; intervalMs?: number } = {}): Promise<F> {
  const stallMs = options.stallMs ?? FEED_STALL_MS;
  const progressOf = (feed: F) => `${feed.status} at ${feed.rowsTotal} rows`;
  let seen: string | undefined;
  for (;;) {
    const feed = await vi.waitFor(
      async () => {
        const current = await read();
        if (done(current) || progressOf(current) !== seen) return current;
        throw new Error(`Feed ${current.feedId} made no progress in ${stallMs} ms: still ${progressOf(current)}`);
      },
      { timeout: stallMs, interval: options.intervalMs ?? 150 },
    );
    if (done(feed)) return feed;
    seen = progressOf(feed);
  }
}

/** Reads the feed until it has completed or failed (failing on a stall, see waitForFeedProgress); returns it. */
export function waitForFeed(client: TestClient, apiKey: string, feedId: string, options: { stallMs?: number } = {}): Promise<Record<string, any> & FeedProgressView> {
  return waitForFeedProgress(
    async () => {
      const response = await client.get(`/v1/seller/feeds/${feedId}`, { apiKey });
      if (response.status !== 200) throw new Error(`GET feed: ${response.status} ${response.text}`);
      return response.json.data as FeedProgressView;
    },
    (feed) => feed.status === 'completed' || feed.status === 'failed',
    options,
  );
}

/** A CSV feed of `rows` products with skus `<prefix>-<n>`. */
export function generatedCsv(rows: number, prefix = 'GEN'): string {
  const lines = ['sku,title,price,currency,available_quantity,category,ships_from,attributes'];
  for (let i = 1; i <= rows; i++) lines.push(`${prefix}-${i},Generated product ${i},${(i % 97) + 1}.25,USD,${i * 3},safety/gloves,DE,size=M;batch=${i}`);
  return `${lines.join('\n')}\n`;
}
