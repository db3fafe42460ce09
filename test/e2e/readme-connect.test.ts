// README.md, "Connect an agent", tried as written against the local runtime: each MCP configuration
// started (or called) as an MCP client would, with only the path, the key and the URL filled in; the
// SDK script run by Node as a user's project runs it; the webhook receiver given real deliveries.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { registerUnlimited } from '../support/catalog.ts';
import { registerAgent } from '../support/http-client.ts';
import { BUYER_TOOLS, REPOSITORY_ROOT, SELLER_TOOLS } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct, orderAction } from '../support/trade.ts';

const run = promisify(execFile);
const baseUrl = inject('baseUrl');
const http = newClient();
const readme = readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8');

/** The block under `<!-- connect: name -->`. */
function block(name: string): string {
  const found = new RegExp(`<!-- connect: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!found) throw new Error(`README.md has no block marked connect: ${name}`);
  return found[1] as string;
}

interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}

/** The README's MCP configuration with this machine's path, a real key and the runtime's URL. */
function mcpConfig(name: string, apiKey: string): McpServerConfig {
  const filled = block(name).replaceAll('/path/to/agent-marketplace', REPOSITORY_ROOT).replaceAll('mk_test_…', apiKey).replaceAll('http://localhost:3000', baseUrl);
  const parsed = JSON.parse(filled) as { mcpServers: Record<string, McpServerConfig> };
  expect(Object.keys(parsed.mcpServers)).toEqual(['agent-marketplace']);
  return parsed.mcpServers['agent-marketplace'] as McpServerConfig;
}

async function toolNames(client: Client): Promise<string[]> {
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
}

let dir: string;
beforeAll(() => {
  // A user's project: ESM, with the repository's node_modules (where the workspace links the built SDK).
  dir = mkdtempSync(path.join(tmpdir(), 'readme-connect-'));
  symlinkSync(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'a-users-project' }));
  // Saved as README says: .mts files, which Node runs as TypeScript ES modules whatever package.json says.
  writeFileSync(path.join(dir, 'buyer.mts'), block('sdk').replaceAll('http://localhost:3000', baseUrl));
  writeFileSync(path.join(dir, 'buyer.mjs'), block('sdk').replaceAll('http://localhost:3000', baseUrl));
  writeFileSync(path.join(dir, 'receiver.mts'), block('webhook-receiver'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README.md: Connect an agent', () => {
  it('the stdio configuration (npm run mcp) starts the server, as a desktop MCP client starts it', async () => {
    const { apiKey } = await registerAgent(http, { role: 'buyer' });
    const config = mcpConfig('mcp-stdio', apiKey);
    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: config.command as string, args: config.args ?? [], env: config.env ?? {}, stderr: 'pipe' }));
    expect(await toolNames(client)).toEqual([...BUYER_TOOLS].sort());
  });

  it('the stdio configuration of the built bin starts it', async () => {
    const { apiKey } = await registerAgent(http, { role: 'seller' });
    const config = mcpConfig('mcp-stdio-bin', apiKey);
    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: config.command as string, args: config.args ?? [], env: config.env ?? {}, stderr: 'pipe' }));
    expect(await toolNames(client)).toEqual([...SELLER_TOOLS].sort());
  });

  it('the URL configuration reaches POST /mcp with the key', async () => {
    const { apiKey } = await registerAgent(http, { role: 'seller' });
    const config = mcpConfig('mcp-http', apiKey);
    expect(config.type).toBe('http');
    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(config.url as string), { requestInit: { headers: config.headers ?? {} } }));
    expect(await toolNames(client)).toEqual([...SELLER_TOOLS].sort());
  });

  it('the SDK script searches, negotiates, orders and follows the order until the seller ships it', async () => {
    // A product only this test sells, with a floor: the seller's policy asks from the list price down toward it.
    const word = `readme${Date.now().toString(36).replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)] as string)}`;
    const listing = await listProduct(http, { title: `${word} nitrile gloves`, price: { amount: 2000, currency: 'EUR' }, shipsFrom: 'DE', floorUnitPrice: { amount: 1940, currency: 'EUR' }, autoAcceptUnitPrice: { amount: 1980, currency: 'EUR' } });
    const buyer = await registerUnlimited(http, 'buyer');
    for (let tries = 0; ; tries += 1) {
      const found = await http.post('/v1/search', { query: word }, { apiKey: buyer.apiKey });
      if (found.json.data.items.length > 0) break;
      if (tries > 80) throw new Error('the product never became searchable');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const script = spawn(process.execPath, ['buyer.mts', `50 ${word} gloves from Germany`], { cwd: dir, env: { ...process.env, MARKETPLACE_API_KEY: buyer.apiKey } });
    let output = '';
    let errors = '';
    script.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    script.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => script.once('exit', resolve));
    try {
      // The seller ships once the script has ordered and is following.
      for (let tries = 0; !/ordered (ord_\w+)/.test(output); tries += 1) {
        if (tries > 600 || script.exitCode !== null) throw new Error(`the script did not order:\n${output}\n${errors}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const orderId = /ordered (ord_\w+)/.exec(output)![1] as string;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await orderAction(http, listing.seller.apiKey, orderId, 'confirm')).status).toBe(200);
      expect((await orderAction(http, listing.seller.apiKey, orderId, 'ship', { carrier: 'DHL', trackingNumber: '00340434161094042557' })).status).toBe(200);
      expect(await exited, errors).toBe(0);
    } finally {
      script.kill();
    }
    expect(output).toMatch(/understood: \{.*"shipsFrom":"DE".*\}/);
    expect(output).toMatch(/ordered ord_[0-9A-Z]{26}: \{ amount: \d+, currency: 'EUR' \}\norder\.confirmed\norder\.shipped\n$/);
    // Several rounds: the policy countered the opening 95% and the buyer's counters before the accept.
    const [sessionId] = (await http.get('/v1/negotiations?status=ordered', { apiKey: buyer.apiKey })).json.data.items.map((session: any) => session.sessionId);
    const session = (await http.get(`/v1/negotiations/${sessionId}`, { apiKey: buyer.apiKey })).json.data;
    expect(session.round).toBeGreaterThan(2);
  }, 120_000);

  it('the webhook receiver verifies real deliveries', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const secret = 'a-readme-receiver-secret-of-32-chars';
    const receiver = spawn(process.execPath, ['receiver.mts'], { cwd: dir, env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: secret } });
    let printed = '';
    receiver.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      const { apiKey } = await registerAgent(http, { role: 'buyer' });
      const subscription = await http.post('/v1/webhooks', { url: `http://127.0.0.1:${port}/hooks`, events: ['*'], secret }, { apiKey });
      expect(subscription.status, subscription.text).toBe(201);
      // The receiver may still be starting: a test delivery until one is acknowledged.
      for (let tries = 0; !/webhook\.test/.test(printed); tries += 1) {
        if (tries > 40) throw new Error(`no verified delivery: ${printed}`);
        await http.post(`/v1/webhooks/${subscription.json.data.id}/test`, undefined, { apiKey });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(printed).toMatch(/^evt_[0-9A-Z]{26} webhook\.test$/m);
      // A delivery signed with another secret is refused.
      const other = await http.post('/v1/webhooks', { url: `http://127.0.0.1:${port}/hooks`, events: ['*'], secret: `${secret}-other` }, { apiKey });
      await http.post(`/v1/webhooks/${other.json.data.id}/test`, undefined, { apiKey });
      for (let tries = 0; ; tries += 1) {
        const [delivery] = (await http.get(`/v1/webhooks/${other.json.data.id}/deliveries`, { apiKey })).json.data.items;
        if (delivery?.attempts.length > 0) {
          expect(delivery.attempts[0]).toMatchObject({ statusCode: 400, responseBody: expect.stringContaining('No webhook-signature matches') });
          break;
        }
        if (tries > 40) throw new Error('the delivery signed with another secret was never attempted');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      receiver.kill();
    }
  });

  it('parses the SDK script as plain JavaScript, as README says it runs when saved as .mjs', async () => {
    await run(process.execPath, ['--check', 'buyer.mjs'], { cwd: dir });
  });

  it('type-checks the SDK script and the receiver as a user’s project would', async () => {
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'nodenext', moduleResolution: 'nodenext', types: ['node'], strict: true, noEmit: true, skipLibCheck: true }, include: ['*.mts'] }),
    );
    await run(process.execPath, [path.join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir, timeout: 120_000 }).catch((error: { stdout?: string }) => {
      throw new Error(`README snippets do not type-check:\n${error.stdout ?? ''}`);
    });
  }, 150_000);
});
