// The served OpenAPI document: it validates with a standard parser, lists exactly the route table,
// names the origin it was fetched from as its server, stays within its size budget, and real
// responses — successes and errors — match it. Also GET /llms.txt, built from the same table.
import { validate, compileErrors } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../functions/registry.ts';
import { errorCodesFor } from '../../shared/http/route-table.ts';
import { statusOf } from '../../shared/http/error-codes.ts';
import { SANDBOX_API_DOCUMENT_MAX_BYTES, documentedRoutes } from '../../shared/openapi/document.ts';
import { awaitFreshMinute, registerAgent, registration } from '../support/http-client.ts';
import { newClient } from '../support/runtime.ts';
import { OpenApiResponseValidator } from '../support/openapi-validator.ts';

const client = newClient();
let document: any;
let served: Awaited<ReturnType<typeof client.get>>;
let validator: OpenApiResponseValidator;

beforeAll(async () => {
  served = await client.get('/v1/openapi.json');
  expect(served.status).toBe(200);
  document = served.json;
  validator = await OpenApiResponseValidator.create(document);
});

describe('GET /v1/openapi.json', () => {
  it('is a raw (not enveloped) OpenAPI 3.1 document that a standard parser accepts', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document).not.toHaveProperty('data');
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('names the origin it was fetched from as its server, and stays within a sandbox’s budget (SANDBOX_API_DOCUMENT_MAX_BYTES)', () => {
    expect(document.servers).toEqual([{ url: new URL(client.baseUrl).origin, description: expect.stringMatching(/local/), 'x-internal': false }]);
    expect(Buffer.byteLength(served.text, 'utf8')).toBeLessThanOrEqual(SANDBOX_API_DOCUMENT_MAX_BYTES);
  });

  it('documents exactly the routes of the route table but the pages for people and the agent card, with their errors and the bearer scheme', () => {
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routes = documentedRoutes(routeList);
    expect(routes.length).toBe(routeList.filter((route) => route.pageForPeople !== true && route.discoveryDocument !== true).length);
    expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of routes) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.security ?? document.security).toEqual(route.auth === 'apiKey' ? [{ bearerAuth: [] }] : []);
      const statuses = Object.keys(operation.responses).sort();
      const expected = [route.response.status, ...errorCodesFor(route).map((code) => statusOf(code)), ...(route.protocolResponses ?? []).map(({ status }) => status)];
      expect(statuses).toEqual([...new Set(expected.map(String))].sort());
    }
  });
});

describe('real responses match the document', () => {
  it('for every endpoint, successes and errors alike', async () => {
    await awaitFreshMinute(15);
    const problems: string[] = [];
    const check = (method: string, path: string, response: Awaited<ReturnType<typeof client.get>>) => {
      for (const problem of validator.problems(method, path, response)) problems.push(`${method} ${path} ${response.status}: ${problem}`);
    };

    const registered = await client.post('/v1/agents/register', registration());
    check('POST', '/v1/agents/register', registered);
    check('POST', '/v1/agents/register', await client.post('/v1/agents/register', { name: 1 }));
    const { apiKey } = await registerAgent(client);

    check('GET', '/v1/agents/me', await client.get('/v1/agents/me', { apiKey }));
    check('GET', '/v1/agents/me', await client.get('/v1/agents/me'));
    check('PATCH', '/v1/agents/me', await client.patch('/v1/agents/me', { name: 'New name' }, { apiKey }));
    check('PATCH', '/v1/agents/me', await client.patch('/v1/agents/me', { name: 'x'.repeat(1_100_000) }, { apiKey }));

    const hook = await client.post('/v1/webhooks', { url: 'https://h.example/x', events: ['*'], secret: 'sixteen-characters' }, { apiKey });
    check('POST', '/v1/webhooks', hook);
    const id = hook.json.data.id as string;
    check('GET', '/v1/webhooks', await client.get('/v1/webhooks?limit=1', { apiKey }));
    check('GET', '/v1/webhooks', await client.get('/v1/webhooks?limit=0', { apiKey }));
    check('GET', '/v1/webhooks/{id}', await client.get(`/v1/webhooks/${id}`, { apiKey }));
    check('GET', '/v1/webhooks/{id}', await client.get('/v1/webhooks/whk_00000000000000000000000000', { apiKey }));
    check('PATCH', '/v1/webhooks/{id}', await client.patch(`/v1/webhooks/${id}`, { active: false }, { apiKey }));
    check('DELETE', '/v1/webhooks/{id}', await client.delete(`/v1/webhooks/${id}`, { apiKey }));
    check('POST', '/v1/agents/me/rotate-key', await client.post('/v1/agents/me/rotate-key', undefined, { apiKey }));
    check('GET', '/health', await client.get('/health'));

    expect(problems).toEqual([]);
  });
});

describe('GET /llms.txt', () => {
  it('is Markdown in the llms.txt form, without a key and without rate limiting, naming every operation and the documents', async () => {
    const response = await client.get('/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    const lines = response.text.split('\n');
    expect(lines[0]).toBe('# Agent Marketplace API');
    expect(lines[2]).toMatch(/^> \S/);
    for (const link of ['(/v1/openapi.json)', '(/docs)', '[MCP (Streamable HTTP)](/mcp)']) expect(response.text).toContain(link);
    for (const route of routeList) expect(response.text, route.operationId).toContain(`${route.method} ${route.path}`);
    expect(response.text).toContain('## Optional');
  });
});
