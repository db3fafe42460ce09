// Catalog helpers for end-to-end tests: sellers on a plan that polling cannot exhaust, feed uploads
// in each mode, and waiting for a feed to finish.
import { setAgentPlan } from '../../shared/data/agents.ts';
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

/** Polls the feed until it has completed or failed; returns it. */
export async function waitForFeed(client: TestClient, apiKey: string, feedId: string, timeoutMs = 20_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.get(`/v1/seller/feeds/${feedId}`, { apiKey });
    if (response.status !== 200) throw new Error(`GET feed: ${response.status} ${response.text}`);
    const feed = response.json.data;
    if (feed.status === 'completed' || feed.status === 'failed') return feed;
    if (Date.now() > deadline) throw new Error(`Feed ${feedId} still ${feed.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** A CSV feed of `rows` products with skus `<prefix>-<n>`. */
export function generatedCsv(rows: number, prefix = 'GEN'): string {
  const lines = ['sku,title,price,currency,available_quantity,category,ships_from,attributes'];
  for (let i = 1; i <= rows; i++) lines.push(`${prefix}-${i},Generated product ${i},${(i % 97) + 1}.25,USD,${i * 3},safety/gloves,DE,size=M;batch=${i}`);
  return `${lines.join('\n')}\n`;
}
