// The package as published: its name resolves to the built dist, it has no runtime dependencies, and
// the build runs in a plain Node process — Node 20 (the oldest supported) where the machine has one;
// so does its MCP server bin, against the local runtime.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as published from '@agent-marketplace/sdk';
import { describe, expect, inject, it } from 'vitest';
import { SDK_VERSION } from '../src/version.ts';

const packageDir = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
const repositoryRoot = path.resolve(packageDir, '..', '..');

/** Node binaries outside npm's PATH (the system's), other than the one running the tests. */
function otherNodes(): { binary: string; version: string }[] {
  const found = new Map<string, string>();
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    if (version !== process.version) found.set(version, candidate);
  }
  return [...found].map(([version, binary]) => ({ binary, version }));
}

const SCRIPT = `
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';
import { Marketplace, verifyWebhook, InternalServerError } from '@agent-marketplace/sdk';

let calls = 0;
const server = createServer((req, res) => {
  calls += 1;
  if (calls === 1) { res.writeHead(503, { 'content-type': 'application/json' }); return res.end(JSON.stringify({ error: 'busy', code: 'internal', status: 503, requestId: 'req_1' })); }
  const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
  const page = cursor ? { items: [{ orderId: 'ord_2' }], nextCursor: null } : { items: [{ orderId: 'ord_1' }], nextCursor: 'c1' };
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_' + calls });
  res.end(JSON.stringify({ data: page, meta: { requestId: 'req_' + calls, timestamp: new Date().toISOString() } }));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const mk = new Marketplace({ apiKey: 'mk_test_x', baseUrl: 'http://127.0.0.1:' + server.address().port });
const ids = [];
for await (const order of mk.orders.list()) ids.push(order.orderId);
const body = JSON.stringify({ id: 'evt_1', type: 'order.created', timestamp: new Date().toISOString(), data: {} });
const timestamp = String(Math.floor(Date.now() / 1000));
const signature = createHmac('sha256', 'a-secret-of-16-chars').update('evt_1.' + timestamp + '.' + body).digest('base64');
const event = verifyWebhook({ body, secret: 'a-secret-of-16-chars', headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': timestamp, 'webhook-signature': 'v1,' + signature } });
server.close();
console.log(JSON.stringify({ node: process.version, ids, calls, event: event.type, errorClass: typeof InternalServerError }));
`;

describe('@agent-marketplace/sdk as published', () => {
  it('ships the agent-marketplace command: a launcher npm links before the build, which runs the built CLI on Node 20+', () => {
    expect(manifest.bin['agent-marketplace']).toBe('./bin/agent-marketplace.js');
    expect(manifest.files).toEqual(expect.arrayContaining(['bin', 'dist']));
    expect(statSync(path.join(packageDir, 'bin', 'agent-marketplace.js')).mode & 0o111).not.toBe(0);
    expect(readFileSync(path.join(packageDir, 'dist', 'cli.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    for (const { binary } of [...otherNodes(), { binary: process.execPath }]) {
      const help = execFileSync(binary, [path.join(packageDir, 'bin', 'agent-marketplace.js'), '--help'], { encoding: 'utf8' });
      expect(help).toContain('listen --forward-to <url>');
    }
  });

  it('resolves to the build, with declarations beside it', () => {
    const resolved = fileURLToPath(import.meta.resolve('@agent-marketplace/sdk'));
    expect(resolved).toBe(path.join(packageDir, 'dist', 'index.js'));
    expect(existsSync(path.join(packageDir, 'dist', 'index.d.ts'))).toBe(true);
    expect(typeof published.Marketplace).toBe('function');
    expect(typeof published.verifyWebhook).toBe('function');
    expect(Object.keys(published).sort()).toEqual([
      'AuthenticationError', 'ConflictError', 'IdempotencyError', 'InsufficientScopeError', 'InternalServerError', 'InvalidRequestError', 'Marketplace',
      'MarketplaceConnectionError', 'MarketplaceError', 'NotFoundError', 'PagePromise', 'PermissionError', 'RateLimitError',
      'SpendingLimitError', 'WaitTimeoutError', 'WebhookVerificationError', 'verifyWebhook',
    ]);
  });

  it('declares no runtime dependencies, ESM, Node 20+, and the version it sends', () => {
    expect(manifest).toMatchObject({ name: '@agent-marketplace/sdk', type: 'module', engines: { node: '>=20' }, dependencies: {} });
    expect(manifest.peerDependencies).toBeUndefined();
    expect(manifest.exports['.'].types).toBe('./dist/index.d.ts');
    expect(SDK_VERSION).toBe(manifest.version);
    const built = readFileSync(path.join(packageDir, 'dist', 'http.js'), 'utf8');
    expect(built).not.toMatch(/from ['"](?!node:|\.)/);
  });

  // Each Node starts a fresh process (twice for the bin): minutes, not seconds, on a loaded machine.
  it('runs in a plain Node process, on every other Node installed (the system’s Node 20 here)', { timeout: 120_000 }, () => {
    const nodes = [...otherNodes(), { binary: process.execPath, version: process.version }];
    for (const { binary, version } of nodes) {
      const output = execFileSync(binary, ['--input-type=module', '-e', SCRIPT], { cwd: repositoryRoot, encoding: 'utf8', timeout: 100_000 });
      const result = JSON.parse(output.trim().split('\n').at(-1) as string);
      expect(result, version).toEqual({ node: version, ids: ['ord_1', 'ord_2'], calls: 3, event: 'order.created', errorClass: 'function' });
    }
    console.log(`SDK ran on Node ${nodes.map((node) => node.version).join(', ')}`);
  });

  it('ships the MCP server as the agent-marketplace-mcp bin: one self-contained file that serves the tools over stdio on every Node installed', { timeout: 120_000 }, async () => {
    expect(manifest.bin).toMatchObject({ 'agent-marketplace-mcp': './dist/mcp.js' });
    const bin = path.join(packageDir, 'dist', 'mcp.js');
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    // Self-contained: nothing imported but Node's own modules.
    expect(readFileSync(bin, 'utf8')).not.toMatch(/\bfrom\s*["'](?!node:)[^"']+["']/);
    const seller = await new published.Marketplace({ baseUrl: inject('baseUrl') }).agents.register({ name: 'Bin seller', role: 'seller', organization: { legalName: 'Acme GmbH', country: 'DE' }, contactEmail: 'bin@acme.example' });
    for (const { binary, version } of [...otherNodes(), { binary: process.execPath, version: process.version }]) {
      const client = new Client({ name: 'package-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: binary, args: [bin], env: { PATH: process.env.PATH ?? '', MARKETPLACE_API_KEY: seller.apiKey, MARKETPLACE_BASE_URL: inject('baseUrl') }, stderr: 'pipe' }));
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name), version).toContain('upload_feed');
        expect((await client.callTool({ name: 'get_profile', arguments: {} })).structuredContent, version).toMatchObject({ agentId: seller.agentId, role: 'seller' });
      } finally {
        await client.close();
      }
    }
  });
});
