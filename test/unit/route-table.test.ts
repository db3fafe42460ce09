// The route table's own consistency: unique operations, handler modules that exist and export a
// handler, least-privilege table actions, documented errors.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fallbackRoute, routeList } from '../../functions/registry.ts';
import { errorCodesFor, tableActionsFor } from '../../shared/http/route-table.ts';

describe('route table', () => {
  it('has unique operation ids and unique method + path pairs', () => {
    const ids = routeList.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = routeList.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names a handler module for every row, and each exports a handler', async () => {
    for (const route of [...routeList, fallbackRoute]) {
      expect(existsSync(route.handler), route.handler).toBe(true);
      const module = (await import(/* @vite-ignore */ `../../${route.handler}`)) as { handler?: unknown };
      expect(typeof module.handler, route.handler).toBe('function');
    }
  });

  it('lists every route module in the index, and each names the handler beside it', async () => {
    const files = (readdirSync('functions', { recursive: true }) as string[])
      .filter((file) => file.endsWith('.route.ts'))
      .map((file) => join('functions', file));
    const indexed = [...routeList, fallbackRoute].map((route) => route.handler.replace(/\.ts$/, '.route.ts'));
    expect(indexed.sort()).toEqual(files.sort());
    for (const file of files) {
      const { route } = (await import(/* @vite-ignore */ `../../${file}`)) as { route: { handler: string } };
      expect(route.handler, file).toBe(file.replace(/\.route\.ts$/, '.ts'));
    }
  });

  it('keeps every route under /v1 except the readiness probe, the front door, the web pages, llms.txt, the MCP endpoint and the agent card', () => {
    const outside: Record<string, string> = { health: '/health', getDashboard: '/dashboard', getHome: '/', getReference: '/docs', getReferenceAsset: '/docs/assets/{file}', getLlmsTxt: '/llms.txt', postMcpMessage: '/mcp', getMcpStream: '/mcp', getAgentCard: '/.well-known/agent-card.json' };
    for (const route of routeList) {
      if (route.operationId in outside) expect(route.path).toBe(outside[route.operationId]);
      else expect(route.path.startsWith('/v1/')).toBe(true);
    }
  });

  it('lets the front door and the reference be read without a key or a rate limit, touching no table', () => {
    for (const operationId of ['getHome', 'getReference', 'getReferenceAsset']) {
      const route = routeList.find((candidate) => candidate.operationId === operationId)!;
      expect(route).toMatchObject({ auth: 'public', rateLimited: false });
      expect(tableActionsFor(route)).toEqual([]);
    }
  });

  it('grants the middleware only what it uses', () => {
    const health = routeList.find((route) => route.operationId === 'health');
    expect(health && tableActionsFor(health)).toEqual(['dynamodb:GetItem']);
    const getMe = routeList.find((route) => route.operationId === 'getMyAgent');
    expect(getMe && tableActionsFor(getMe)).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    const llmsTxt = routeList.find((route) => route.operationId === 'getLlmsTxt');
    expect(llmsTxt && tableActionsFor(llmsTxt)).toEqual([]);
    const register = routeList.find((route) => route.operationId === 'registerAgent');
    expect(register && tableActionsFor(register)).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });

  it('derives the errors each route can answer with', () => {
    const byId = Object.fromEntries(routeList.map((route) => [route.operationId, errorCodesFor(route)]));
    expect(byId.registerAgent).not.toContain('auth/invalid-key');
    expect(byId.registerAgent).toEqual(expect.arrayContaining(['idempotency/conflict', 'validation/too-large', 'rate-limit']));
    expect(byId.getWebhook).toEqual(expect.arrayContaining(['auth/invalid-key', 'not-found', 'rate-limit']));
    expect(byId.health).not.toContain('rate-limit');
    expect(byId.createWebhook).toContain('conflict');
  });
});
