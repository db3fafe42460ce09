// Every TypeScript snippet of the SDK's README type-checks against the built package as a user's
// project sees it, and runs against the local runtime (the marker above each block says as whom).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Marketplace } from '@agent-marketplace/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const packageDir = path.resolve(import.meta.dirname, '..');
const repositoryRoot = path.resolve(packageDir, '..', '..');
const baseUrl = inject('baseUrl');

interface Snippet {
  index: number;
  /** standalone | seller | seller, with catalog.csv | buyer | receiver | typecheck */
  kind: string;
  code: string;
  file: string;
}

function snippets(): Snippet[] {
  const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');
  const found: Snippet[] = [];
  for (const match of readme.matchAll(/(?:<!-- snippet: ([^>]+?) -->\n)?```ts\n([\s\S]*?)```/g)) {
    const index = found.length;
    found.push({ index, kind: match[1] ?? 'unmarked', code: match[2] as string, file: `snippet-${index}.ts` });
  }
  return found;
}

const all = snippets();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sdk-readme-'));
  // A user's project: ESM, the repository's node_modules (where the workspace links the built SDK).
  symlinkSync(path.join(repositoryRoot, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'nodenext', moduleResolution: 'nodenext', types: ['node'], strict: true, noEmit: true, skipLibCheck: true },
      include: ['*.ts'],
    }),
  );
  for (const snippet of all) writeFileSync(path.join(dir, snippet.file), snippet.code.replaceAll('http://localhost:3000', baseUrl));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function node(file: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: dir, env: { ...process.env, ...env }, timeout: 90_000 });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`, { cause: error });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const registration = (role: 'seller' | 'buyer') => ({ name: `README ${role}`, role, organization: { legalName: 'Acme GmbH', country: 'DE' }, contactEmail: `${role}@acme.example` });

describe('sdk/typescript/README.md', () => {
  it('marks every TypeScript block with how it is run', () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    expect(all.filter((snippet) => !['standalone', 'seller', 'seller, with catalog.csv', 'buyer', 'receiver', 'typecheck'].includes(snippet.kind))).toEqual([]);
  });

  it('type-checks every snippet against the built package', async () => {
    try {
      await run(process.execPath, [path.join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir, timeout: 120_000 });
    } catch (error) {
      const failed = error as { stdout?: string };
      throw new Error(`README snippets do not type-check:\n${failed.stdout ?? ''}`, { cause: error });
    }
  }, 150_000);

  it('runs the standalone scripts: a sale and a purchase, and a registration', async () => {
    const [trade, register] = all.filter((snippet) => snippet.kind === 'standalone');
    expect(await node(trade!.file)).toMatch(/feed completed: 1 products\nord_[0-9A-Z]{26}: completed, 1180 EUR/);
    expect(await node(register!.file)).toMatch(/^agt_[0-9A-Z]{26}: export MARKETPLACE_API_KEY=mk_test_/);
  }, 120_000);

  it('runs the seller’s and the buyer’s snippets in turn, up to the seller shipping the buyer’s order', async () => {
    const anonymous = new Marketplace({ baseUrl });
    const seller = await anonymous.agents.register(registration('seller'));
    const buyer = await anonymous.agents.register(registration('buyer'));
    const sellerEnv = { MARKETPLACE_API_KEY: seller.apiKey };
    const buyerEnv = { MARKETPLACE_API_KEY: buyer.apiKey };
    writeFileSync(path.join(dir, 'catalog.csv'), 'sku,title,price,currency,available_quantity\nZEP-BOOT-42,Zephyr safety boots size 42,89.00,EUR,40\n');

    const [upload, fulfil] = all.filter((snippet) => snippet.kind === 'seller');
    expect(await node(upload!.file, sellerEnv)).toMatch(/ZEP-GLV-M prd_[0-9A-Z]{26} 5000/);
    expect(await node(all.find((snippet) => snippet.kind === 'seller, with catalog.csv')!.file, sellerEnv)).toMatch(/status: 'completed'/);

    // The search index follows the catalog within seconds; the buyer's snippets search it.
    const sellerClient = anonymous.withApiKey(seller.apiKey);
    for (let tries = 0; (await sellerClient.search.query({ query: 'zephyr gloves', filters: { sellerId: seller.agentId } })).items.length === 0; tries += 1) {
      if (tries > 50) throw new Error('the README seller’s product never became searchable');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const outputs: string[] = [];
    for (const snippet of all.filter((candidate) => candidate.kind === 'buyer')) outputs.push(await node(snippet.file, buyerEnv));
    expect(outputs[0]).toMatch(/ordered ord_[0-9A-Z]{26}: 5750 EUR\n1 create pending/);
    expect(outputs[1]).toMatch(/^whk_[0-9A-Z]{26} \[/);
    expect(outputs[2]).toMatch(/fix quantity: /);
    expect(outputs[3]).toMatch(/ord_[0-9A-Z]{26}/);

    expect(await node(fulfil!.file, sellerEnv)).toMatch(new RegExp(`ord_[0-9A-Z]{26} shipped to ${buyer.agentId}`));
  }, 240_000);

  it('runs the webhook receiver: a signed delivery is accepted, a tampered or unsigned one refused', async () => {
    const port = await freePort();
    const secret = 'a-receiver-secret-for-the-readme';
    const receiver = spawn(process.execPath, [all.find((snippet) => snippet.kind === 'receiver')!.file], { cwd: dir, env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: secret } });
    let printed = '';
    receiver.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      const signer = new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`);
      const body = JSON.stringify({ id: 'evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', type: 'order.shipped', timestamp: new Date().toISOString(), data: { orderId: 'ord_1' } });
      const now = new Date();
      const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signer.sign('evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', now, body) };
      const send = async (payload: string, sent: Record<string, string>) => {
        for (let tries = 0; ; tries += 1) {
          try {
            return await fetch(`http://127.0.0.1:${port}/hooks`, { method: 'POST', body: payload, headers: sent });
          } catch (error) {
            if (tries > 100) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100)); // still starting
          }
        }
      };
      expect((await send(body, headers)).status).toBe(204);
      expect((await send(body, headers)).status).toBe(204); // a duplicate delivery: accepted, handled once
      const tampered = await send(body.replace('ord_1', 'ord_2'), headers);
      expect(tampered.status).toBe(400);
      expect(await tampered.text()).toMatch(/No webhook-signature matches/);
      expect((await send(body, { 'content-type': 'application/json' })).status).toBe(400);
      expect(printed.trim().split('\n')).toEqual(['order.shipped {"orderId":"ord_1"}']);
    } finally {
      receiver.kill();
    }
  });
});
