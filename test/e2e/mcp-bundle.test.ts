// POST /mcp as deployed: the MCP function bundled with the Lambda bundling options (bench/bundle.ts,
// lib/bundling.ts) — the MCP SDK's McpServer and its Streamable HTTP transport, the tool table and our
// SDK's client in one file —, served on loopback through the payload 2.0 events the local gateway
// builds (lib/local/lambda-events.ts), and driven by the MCP
// SDK's own Client (initialize, tools/list with every tool's schema, tool calls that reach the API) and
// by raw messages the Client never sends, so that a difference only the bundle has (a module dropped as
// free of side effects, such as zod's English messages, which the SDK's answers to malformed params are
// written in) fails here.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleEntry } from '../../bench/bundle.ts';
import { gatewayAnswer, httpApiEvent, requestFacts, writeGatewayAnswer, type RouteFunction } from '../../lib/local/lambda-events.ts';
import { lambdaContext } from '../../lib/local/lambda.ts';
import { RouteMatcher } from '../../lib/local/route-matcher.ts';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { registerAgent } from '../support/http-client.ts';
import { BUYER_TOOLS, data, toolError } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';

const outDir = mkdtempSync(path.join(tmpdir(), 'mcp-bundle-'));
let server: Server;
let mcpUrl: URL;
let bundleKb: number;
let bundleText: string;
const clients: Client[] = [];

beforeAll(async () => {
  // The tools call the API at the function's API_BASE_URL: the runtime the tests run against.
  process.env.API_BASE_URL = inject('baseUrl');
  const bundle = await bundleEntry('functions/mcp/post.ts', outDir, { bundleAwsSdk: true });
  bundleKb = bundle.kb;
  bundleText = readFileSync(bundle.file, 'utf8');
  const { handler } = (await import(pathToFileURL(bundle.file).href)) as { handler: RouteFunction & { route: RouteDefinition } };
  const matcher = new RouteMatcher([handler.route], handler.route);
  server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST') {
        response.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const event = httpApiEvent(requestFacts(request, chunks.length > 0 ? Buffer.concat(chunks) : undefined), matcher.match('POST', '/mcp'));
      const answer = gatewayAnswer(await handler(event, lambdaContext(handler.route.operationId, 30_000)));
      if (!answer) throw new Error('the bundled function answered a result API Gateway cannot use');
      writeGatewayAnswer(response, answer, 'mcp-bundle-test');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mcpUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await new Promise((resolve) => server?.close(resolve));
  rmSync(outDir, { recursive: true, force: true });
});

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'mcp-bundle-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  return client;
}

describe('the MCP function as bundled for Lambda', () => {
  it('initializes, lists the role’s tools with their schemas, and calls tools that reach the API', async () => {
    expect(bundleKb).toBeGreaterThan(100);
    // The MCP SDK's server is in the bundle: McpServer's output check and the stateless transport's guard.
    expect(bundleText).toContain('has an output schema but no structured content was provided');
    expect(bundleText).toContain('Stateless transport cannot be reused across requests');
    const buyer = await registerAgent(newClient(), { role: 'buyer' });
    const client = await connect(buyer.apiKey);
    expect(client.getServerVersion()?.name).toBe('agent-marketplace');

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...BUYER_TOOLS].sort());
    const search = tools.find((tool) => tool.name === 'search_products')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['intent', 'query', 'filters', 'sort']));
    expect(search.outputSchema?.type).toBe('object');

    // The client checks structuredContent against the listed output schema.
    expect(await data(client, 'get_profile')).toMatchObject({ agentId: buyer.agentId, role: 'buyer' });
    const refused = await toolError(client, 'get_order', { orderId: 'ord_01JZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(refused).toMatchObject({ code: 'not-found', status: 404 });
    const invalid = await toolError(client, 'start_negotiation', { offerId: 'nope', quantity: 0 });
    expect(invalid.code).toBe('validation/invalid');

    // What only a hand-written message meets: params the protocol refuses, in zod's English, as the MCP SDK answered them.
    const raw = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${buyer.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'raw', method: 'tools/list', params: { cursor: 5 } }),
    });
    expect(raw.status).toBe(200);
    const answer = (await raw.json()) as { id: string; error: { code: number; message: string } };
    expect(answer).toMatchObject({ id: 'raw', error: { code: -32603 } });
    expect(JSON.parse(answer.error.message)).toEqual([{ expected: 'string', code: 'invalid_type', path: ['params', 'cursor'], message: 'Invalid input: expected string, received number' }]);
  });
});
