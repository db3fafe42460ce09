// MCP clients for end-to-end tests: the MCP SDK's own Client, over Streamable HTTP (POST /mcp of the
// local runtime) or over stdio (bin/mcp.ts as a child process), and readers for tool results.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, expect, inject } from 'vitest';

export const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '..', '..');

export const EVERYONE_TOOLS = [
  'get_profile', 'search_products', 'get_product', 'get_offer', 'list_events', 'list_negotiations', 'get_negotiation', 'counter_offer', 'accept_terms',
  'reject_negotiation', 'list_orders', 'get_order', 'get_order_audit', 'cancel_order', 'create_webhook', 'list_webhooks', 'delete_webhook', 'list_webhook_deliveries',
];
export const BUYER_TOOLS = [...EVERYONE_TOOLS, 'start_negotiation', 'preview_order', 'place_order', 'complete_order', 'list_approvals', 'approve_order', 'decline_order', 'advance_order', 'trigger_event', 'request_quotes', 'list_rfqs', 'award_quote'];
export const SELLER_TOOLS = [...EVERYONE_TOOLS, 'get_feed_template', 'upload_feed', 'get_feed', 'list_feeds', 'retry_feed', 'list_my_products', 'confirm_order', 'ship_order', 'mark_delivered', 'trigger_event', 'list_rfqs', 'submit_quote'];

const clientInfo = { name: 'agent-marketplace-tests', version: '1.0.0' };

/**
 * A Client connected to POST /mcp with the key as its bearer token. It lists the tools at once, as MCP
 * clients do: from then on it checks every call's structuredContent against the tool's outputSchema.
 */
export async function connectHttp(apiKey: string, baseUrl = inject('baseUrl')): Promise<Client> {
  const client = new Client(clientInfo);
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  await client.listTools();
  return client;
}

/** A Client that started `command args` (default: bin/mcp.ts on this Node) with the key in its environment. */
export async function connectStdio(apiKey: string, options: { command?: string; args?: string[]; baseUrl?: string; cwd?: string } = {}): Promise<Client> {
  const client = new Client(clientInfo);
  await client.connect(
    new StdioClientTransport({
      command: options.command ?? process.execPath,
      args: options.args ?? [path.join(REPOSITORY_ROOT, 'bin', 'mcp.ts')],
      cwd: options.cwd ?? REPOSITORY_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MARKETPLACE_API_KEY: apiKey, MARKETPLACE_BASE_URL: options.baseUrl ?? inject('baseUrl') },
      stderr: 'pipe',
    }),
  );
  await client.listTools(); // as with connectHttp: every later result is checked against its outputSchema
  return client;
}

/** Calls a tool; the Client has already checked structuredContent against the tool's outputSchema. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error(`The result's first block is not text: ${JSON.stringify(result)}`);
  return block.text;
}

/** The data of a successful call: structuredContent, which the JSON text block repeats. */
export async function data(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** The error of a failed call: the JSON of its text block ({code, message, details, status, requestId}). */
export async function toolError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name} should have failed: ${textOf(result)}`).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return JSON.parse(textOf(result));
}

/** Tracks the MCP clients a test file connects and closes them after its tests: `const track = closedAfterAll();`. */
export function closedAfterAll(): (client: Promise<Client>) => Promise<Client> {
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });
  return async (client) => {
    const connected = await client;
    clients.push(connected);
    return connected;
  };
}
