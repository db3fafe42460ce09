// The built `agent-marketplace` command (the package's bin, run as npx runs it) against the local
// runtime and a local webhook handler: `listen` forwards each new event signed with the local secret it
// prints (verified with verifyWebhook and with the independent Standard Webhooks implementation), one
// line per event with the handler's status, and says so in one line when the handler refuses the
// connection; `trigger` sends a sample event; `events tail` and `requests tail` print what happens, a
// failed request included; a missing key, an unreachable API and a refused key are one line and an
// exit code each.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Marketplace, verifyWebhook } from '@agent-marketplace/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'agent-marketplace.js');
const organization = { legalName: 'Acme GmbH', country: 'DE' };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGINT');
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

async function handler(status = 200): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received };
}

async function agent(role: 'buyer' | 'seller'): Promise<{ apiKey: string; mk: Marketplace }> {
  const anonymous = new Marketplace({ baseUrl });
  const registered = await anonymous.agents.register({ name: `CLI ${role}`, role, organization, contactEmail: `${role}@cli.example` });
  return { apiKey: registered.apiKey, mk: anonymous.withApiKey(registered.apiKey) };
}

const environment = (apiKey: string | undefined, base = baseUrl) => ({ ...process.env, MARKETPLACE_API_KEY: apiKey ?? '', MARKETPLACE_BASE_URL: base });

/** Runs the command to its end. */
function run(args: string[], apiKey: string | undefined, base = baseUrl) {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: environment(apiKey, base), encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts a long-running command; its output accumulates until it is stopped. */
function start(args: string[], apiKey: string) {
  const child = spawn(process.execPath, [BIN, ...args], { env: environment(apiKey) });
  children.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    output,
    async lines(pattern: RegExp, count: number, timeoutMs = 25_000): Promise<string[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = output.stdout.split('\n').filter((line) => pattern.test(line));
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`waited for ${count} lines matching ${pattern}; stdout: ${output.stdout} stderr: ${output.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop(): Promise<number | null> {
      child.kill('SIGINT');
      return exited;
    },
  };
}

describe('agent-marketplace listen', () => {
  it('forwards each new event to the local handler, signed with the secret it prints, one line per event with the answer', async () => {
    const buyer = await agent('buyer');
    const local = await handler(200);
    const listen = start(['listen', '--forward-to', local.url], buyer.apiKey);
    const [ready] = await listen.lines(/Your webhook signing secret is whsec_/, 1);
    const secret = /(whsec_[A-Za-z0-9+/=]+)/.exec(ready ?? '')?.[1] as string;
    await listen.lines(/^Ready!/, 1);

    const triggered = run(['trigger', 'order.shipped'], buyer.apiKey);
    expect(triggered.status, triggered.stderr).toBe(0);
    expect(triggered.stdout).toMatch(/^Triggered order\.shipped \[evt_/);
    await buyer.mk.testHelpers.triggerEvent('negotiation.counter');

    const lines = await listen.lines(/-->/, 2);
    expect(lines[0]).toMatch(/--> order\.shipped \[evt_[0-9A-Z]{26}\]\s+<-- \[200\] POST http:\/\/127\.0\.0\.1:\d+\/webhooks/);
    expect(lines[1]).toMatch(/--> negotiation\.counter \[evt_/);
    expect(local.received).toHaveLength(2);
    const [first] = local.received;
    const event = verifyWebhook({ body: first!.body, headers: first!.headers, secret });
    expect(event).toMatchObject({ type: 'order.shipped', data: { sample: true, status: 'shipped' } });
    expect(new Webhook(secret).verify(first!.body, first!.headers as Record<string, string>)).toMatchObject({ type: 'order.shipped' });
    expect(await listen.stop()).toBe(0);
  });

  it('only the types asked for; a handler that refuses the connection is one line per event, and listening goes on', async () => {
    const seller = await agent('seller');
    // A port nothing listens on any more.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const refusing = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/webhooks`;
    await new Promise((resolve) => closed.close(resolve));
    const listen = start(['listen', '--forward-to', refusing, '--events', 'feed.failed,order.created'], seller.apiKey);
    await listen.lines(/^Ready! Forwarding feed\.failed, order\.created event/, 1);
    await seller.mk.testHelpers.triggerEvent('order.confirmed');
    await seller.mk.testHelpers.triggerEvent('feed.failed');
    await seller.mk.testHelpers.triggerEvent('order.created');
    const lines = await listen.lines(/-->/, 2);
    expect(lines.map((line) => /--> (\S+)/.exec(line)?.[1])).toEqual(['feed.failed', 'order.created']);
    for (const line of lines) expect(line).toMatch(/<-- \[ERROR\] connection refused/);
    expect(await listen.stop()).toBe(0);
  });
});

describe('agent-marketplace events tail and requests tail', () => {
  it('print each new event and each new request, a failed one with its code', async () => {
    const buyer = await agent('buyer');
    const events = start(['events', 'tail'], buyer.apiKey);
    const requests = start(['requests', 'tail'], buyer.apiKey);
    await events.lines(/^/, 0);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // both have read where they start
    await buyer.mk.testHelpers.triggerEvent('order.delivered');
    const failed = await fetch(`${baseUrl}/v1/create-order`, { method: 'POST', headers: { authorization: `Bearer ${buyer.apiKey}`, 'content-type': 'application/json' }, body: '{"sessionId":"neg_01JF3Q5Z8X2C7V9B4N6M1K0PQR"}' });
    expect(failed.status).toBe(404);
    const failedId = failed.headers.get('x-request-id') as string;

    const [eventLine] = await events.lines(/order\.delivered/, 1);
    expect(eventLine).toMatch(/order\.delivered\s+evt_\S+\s+ord_\S+ delivered\s+\(sample\)/);
    const requestLines = await requests.lines(/\/v1\/create-order/, 1);
    expect(requestLines[0]).toContain(`POST   /v1/create-order  404 not-found`);
    expect(requestLines[0]).toContain(failedId);
    const all = await requests.lines(/\/v1\/test-helpers\/events/, 1);
    expect(all[0]).toMatch(/POST\s+\/v1\/test-helpers\/events {2}201 /);
    expect(await events.stop()).toBe(0);
    expect(await requests.stop()).toBe(0);
  });
});

describe('agent-marketplace errors', () => {
  it('one line and an exit code: a missing key (2), an unreachable API (1), a refused key (1), a bad command (2)', async () => {
    const missing = run(['trigger', 'order.created'], undefined);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('MARKETPLACE_API_KEY is not set');

    const unreachable = run(['listen', '--forward-to', 'http://127.0.0.1:9/hooks'], 'mk_test_abcdefghijklmnopqrstuvwxyzABCDEFGH', 'http://127.0.0.1:1');
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).toContain('no marketplace answered at http://127.0.0.1:1');

    const refused = run(['requests', 'tail'], 'mk_test_abcdefghijklmnopqrstuvwxyzABCDEFGH');
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('refused MARKETPLACE_API_KEY');

    const buyer = await agent('buyer');
    const noUrl = run(['listen'], buyer.apiKey);
    expect(noUrl.status).toBe(2);
    expect(noUrl.stderr).toContain('listen needs --forward-to <url>');
    const unknownType = run(['trigger', 'order.teleported'], buyer.apiKey);
    expect(unknownType.status).toBe(1);
    expect(unknownType.stderr).toMatch(/^agent-marketplace: 422 validation\/invalid: /);
    expect(run(['dance'], buyer.apiKey).status).toBe(2);
  });
});
