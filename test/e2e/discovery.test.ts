// Discovery, over HTTP against the local runtime: GET /.well-known/agent-card.json is an A2A 0.3
// AgentCard (checked against the fields A2A 0.3.0 requires, with its nested objects) whose URLs are the
// origin that served it and whose skills are the MCP tools each role is listed; server.json at the
// repository root describes the same MCP endpoint for the MCP Registry (checked against the registry's
// server.json shape), and the remote it describes answers an MCP client with a real key.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { routeList } from '../../functions/registry.ts';
import { registerAgent } from '../support/http-client.ts';
import { connectHttp, REPOSITORY_ROOT } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';

const client = newClient();
const baseUrl = inject('baseUrl');
const version = (JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((mcp) => mcp.close()));
});

const url = { type: 'string', format: 'uri' } as const;
const strings = { type: 'array', items: { type: 'string' } } as const;

/** A2A 0.3.0's AgentCard: its required fields and those of the objects it holds (AgentSkill, AgentProvider, AgentInterface, AgentCapabilities, HTTPAuthSecurityScheme). */
const AGENT_CARD = {
  type: 'object',
  required: ['protocolVersion', 'name', 'description', 'url', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'],
  properties: {
    protocolVersion: { type: 'string', pattern: '^0\\.3\\.' },
    name: { type: 'string', minLength: 1 },
    description: { type: 'string', minLength: 1 },
    url,
    preferredTransport: { type: 'string' },
    additionalInterfaces: { type: 'array', items: { type: 'object', required: ['url', 'transport'], properties: { url, transport: { type: 'string' } } } },
    provider: { type: 'object', required: ['organization', 'url'], properties: { organization: { type: 'string' }, url } },
    version: { type: 'string', minLength: 1 },
    documentationUrl: url,
    capabilities: { type: 'object', properties: { streaming: { type: 'boolean' }, pushNotifications: { type: 'boolean' }, stateTransitionHistory: { type: 'boolean' } } },
    securitySchemes: {
      type: 'object',
      additionalProperties: { type: 'object', required: ['type', 'scheme'], properties: { type: { const: 'http' }, scheme: { type: 'string' }, bearerFormat: { type: 'string' }, description: { type: 'string' } } },
    },
    security: { type: 'array', items: { type: 'object', additionalProperties: strings } },
    defaultInputModes: strings,
    defaultOutputModes: strings,
    skills: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'name', 'description', 'tags'],
        properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, tags: strings, examples: strings, inputModes: strings, outputModes: strings },
      },
    },
    supportsAuthenticatedExtendedCard: { type: 'boolean' },
  },
};

/** The MCP Registry's server.json (schema 2025-12-11): the fields it requires, its name and URL patterns, and a remote's inputs. */
const INPUT = { type: 'object', properties: { description: { type: 'string' }, isRequired: { type: 'boolean' }, isSecret: { type: 'boolean' }, value: { type: 'string' } } } as const;
const SERVER_JSON = {
  type: 'object',
  required: ['$schema', 'name', 'description', 'version'],
  properties: {
    $schema: { const: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    version: { type: 'string', maxLength: 255, not: { pattern: '^[~^<>=]|[x*]' } },
    remotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url'],
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' },
          variables: { type: 'object', additionalProperties: INPUT },
          headers: { type: 'array', items: { ...INPUT, required: ['name'], properties: { ...INPUT.properties, name: { type: 'string' }, variables: { type: 'object', additionalProperties: INPUT } } } },
        },
      },
    },
  },
};

function expectValid(schema: object, value: unknown) {
  const validate = ajv.compile(schema);
  expect(validate(value) ? [] : validate.errors).toEqual([]);
}

/** `{name}` placeholders of a template. */
const placeholders = (template: string): string[] => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);

describe('GET /.well-known/agent-card.json', () => {
  it('is an A2A agent card, public, for the origin that served it, with the package’s version', async () => {
    const response = await client.get('/.well-known/agent-card.json');
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const card = response.json;
    expectValid(AGENT_CARD, card);
    expect(card).toMatchObject({
      name: 'Agent Marketplace',
      url: `${baseUrl}/v1`,
      preferredTransport: 'HTTP+JSON',
      version,
      documentationUrl: `${baseUrl}/docs`,
      provider: { url: `${baseUrl}/` },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
    });
    expect(card.additionalInterfaces).toContainEqual({ url: `${baseUrl}/mcp`, transport: 'MCP' });
    expect(JSON.stringify(card)).not.toContain('origin.invalid');
    // The URLs it names are this API's.
    expect((await client.get('/v1/openapi.json')).status).toBe(200);
    expect((await client.get('/docs')).status).toBe(200);
    // A row of the route table, outside the API document like the pages for people.
    expect(routeList.find((route) => route.path === '/.well-known/agent-card.json')).toMatchObject({ auth: 'public', method: 'GET' });
    expect((await client.get('/v1/openapi.json')).json.paths['/.well-known/agent-card.json']).toBeUndefined();
  });

  it('lists a skill per role, naming exactly the MCP tools that role is listed', async () => {
    const card = (await client.get('/.well-known/agent-card.json')).json;
    expect(card.skills.map((skill: { id: string }) => skill.id)).toEqual(['buy', 'sell']);
    for (const [role, skillId] of [['buyer', 'buy'], ['seller', 'sell']] as const) {
      const { apiKey } = await registerAgent(client, { role });
      const mcp = await connectHttp(apiKey);
      clients.push(mcp);
      const listed = (await mcp.listTools()).tools.map((tool) => tool.name).sort();
      const skill = card.skills.find((candidate: { id: string }) => candidate.id === skillId);
      const named = /MCP tools \([^)]*\): ([^.]+)\./.exec(skill.description)?.[1]?.split(', ').sort();
      expect(named).toEqual(listed);
    }
  });
});

describe('server.json (MCP Registry)', () => {
  const server = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'server.json'), 'utf8'));

  it('has the registry’s shape, the package’s version, and a streamable-http remote with every placeholder described', () => {
    expectValid(SERVER_JSON, server);
    expect(server.version).toBe(version);
    const [remote, ...others] = server.remotes;
    expect(others).toEqual([]);
    expect(remote.type).toBe('streamable-http');
    expect(new URL(remote.url.replace('{apiHost}', 'api.example.com')).pathname).toBe(routeList.find((route) => route.operationId === 'postMcpMessage')!.path);
    for (const name of placeholders(remote.url)) expect(remote.variables?.[name], name).toMatchObject({ isRequired: true, description: expect.any(String) });
    const authorization = remote.headers.find((header: { name: string }) => header.name === 'Authorization');
    expect(authorization).toMatchObject({ isRequired: true, isSecret: true, value: 'Bearer {apiKey}' });
    for (const name of placeholders(authorization.value)) expect(authorization.variables?.[name], name).toMatchObject({ isRequired: true, isSecret: true });
  });

  it('describes a remote an MCP client reaches with the header filled in', async () => {
    const remote = server.remotes[0];
    const { apiKey } = await registerAgent(client, { role: 'buyer' });
    // Locally the API is plain HTTP on 127.0.0.1; the remote's path and header are as server.json says.
    const host = new URL(baseUrl).host;
    const endpoint = remote.url.replace('{apiHost}', host).replace(/^https:/, 'http:');
    const authorization = remote.headers[0].value.replace('{apiKey}', apiKey);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'registry-check', version: '1.0.0' } } }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBeTruthy();
  });
});
