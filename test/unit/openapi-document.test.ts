// The OpenAPI document as built from the route index: within its size budget, clean under Spectral
// (spectral:oas and the OWASP ruleset, with the repository's .spectral.yaml), and complete — every
// operation described with its callers, every example valid against both the route's zod schemas and
// the JSON Schemas the document emits, shared pieces referenced, limits stated.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dereference } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedOpenApiDocument } from '../../bench/api-document.ts';
import { routeList } from '../../functions/registry.ts';
import { ERROR_CODES, statusOf } from '../../shared/http/error-codes.ts';
import { errorCodesFor } from '../../shared/http/route-table.ts';
import { buildLlmsTxt } from '../../shared/openapi/llms-txt.ts';
import { WEBHOOK_EVENTS } from '../../shared/openapi/content.ts';
import { API_DOCUMENT_MAX_BYTES, buildOpenApiDocument, documentedRoutes, SANDBOX_API_DOCUMENT_MAX_BYTES } from '../../shared/openapi/document.ts';
import { servedOn } from '../../shared/resources.ts';
import { PaginationQuery } from '../../shared/schemas/common.ts';
import { EVENT_TYPES } from '../../shared/schemas/webhooks.ts';
import { closed } from '../support/openapi-validator.ts';

const run = promisify(execFile);
const built: any = JSON.parse(JSON.stringify(buildOpenApiDocument(routeList)));
/** Every route but the pages for people (the dashboard, the reference page's files). */
const routes = documentedRoutes(routeList);
let resolved: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);

beforeAll(async () => {
  resolved = await dereference(structuredClone(built));
});

const operationOf = (document: any, route: (typeof routes)[number]) => document.paths[route.path][route.method.toLowerCase()];

/** The example of a media type: `example`, or the first of `examples` (resolved). */
function exampleOf(mediaType: any): unknown {
  if (mediaType.example !== undefined) return mediaType.example;
  const first = Object.values(mediaType.examples ?? {})[0] as { value?: unknown } | undefined;
  return first?.value;
}

function jsonSchemaProblems(schema: unknown, value: unknown): string[] {
  const validate = ajv.compile(closed(schema) as object);
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}

describe('the OpenAPI document', () => {
  it('stays within its budget as a sandbox serves it (SANDBOX_API_DOCUMENT_MAX_BYTES) and as production does, without the test helpers (API_DOCUMENT_MAX_BYTES)', () => {
    expect(Buffer.byteLength(servedOpenApiDocument(), 'utf8')).toBeLessThanOrEqual(SANDBOX_API_DOCUMENT_MAX_BYTES);
    const production = JSON.stringify(buildOpenApiDocument(routeList.filter(servedOn('live'))));
    expect(Buffer.byteLength(production, 'utf8')).toBeLessThanOrEqual(API_DOCUMENT_MAX_BYTES);
    expect(production).not.toContain('/v1/test-helpers');
  });

  it('declares the key scope of every operation that takes a key (x-required-scope), as the pipeline checks it, and lists its 403 where a restricted key can get one', () => {
    for (const route of routes) {
      const operation = operationOf(built, route);
      if (route.auth === 'public') {
        expect(operation['x-required-scope'], route.operationId).toBeUndefined();
        continue;
      }
      expect(operation['x-required-scope'], route.operationId).toBe(route.scope);
      if (route.scope !== 'any') expect(JSON.stringify(operation.responses['403']), route.operationId).toContain('InsufficientScope');
    }
    const llms = buildLlmsTxt(routeList);
    expect(llms).toContain('[POST /v1/create-order](/v1/openapi.json#/paths/~1v1~1create-order/post): Place the order of an accepted session. Callers: buyers only. Key: key scope `orders:write`.');
    expect(llms).toContain('Key: the main key only.');
  });

  describe('Spectral', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('finds nothing, warnings included, with the OAS and OWASP rules and the documented exceptions', async () => {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(built));
      const cli = join('node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');
      const args = [cli, 'lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--fail-severity', 'warn', '--quiet'];
      const output = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }).then(
        (result) => result.stdout,
        (error: { stdout?: string; stderr?: string }) => error.stdout || `[{"message": ${JSON.stringify(error.stderr ?? 'spectral failed')}}]`,
      );
      const findings = (JSON.parse(output) as { code?: string; path?: string[]; message: string }[]).map(
        (finding) => `${finding.code ?? 'error'} at ${(finding.path ?? []).join('.')}: ${finding.message}`,
      );
      expect(findings).toEqual([]);
    }, 180_000);
  });

  it('leaves out only the pages for people, which llms.txt lists as optional, and the A2A agent card', () => {
    const left = routeList.filter((route) => !routes.includes(route));
    expect(left.map((route) => route.operationId).sort()).toEqual(['getAgentCard', 'getDashboard', 'getReferenceAsset']);
    for (const route of left) expect(built.paths[route.path]?.[route.method.toLowerCase()], route.operationId).toBeUndefined();
    for (const keep of ['getHome', 'getLlmsTxt', 'getOpenApiDocument', 'getReference', 'postMcpMessage', 'getMcpStream']) {
      expect(routes.map((route) => route.operationId)).toContain(keep);
    }
  });

  it('describes every operation, with its callers and examples of its request and response', () => {
    for (const route of routes) {
      const operation = operationOf(resolved, route);
      expect(operation.description, route.operationId).toMatch(/\S.{40,}\n\n\*\*Callers\*\*: /s);
      const success = operation.responses[route.response.status];
      const mediaTypes = Object.values<any>(success.content);
      expect(exampleOf(mediaTypes[0]), `${route.operationId} response example`).toBeDefined();
      if (route.request.body) expect(route.examples.body, `${route.operationId} request example`).toBeDefined();
    }
  });

  it('has examples that match the route’s zod schemas and the emitted JSON Schemas', () => {
    const problems: string[] = [];
    for (const route of routes) {
      const operation = operationOf(resolved, route);
      const { body, query, response } = route.examples;

      if (body !== undefined) {
        const parsed = route.request.body?.safeParse(body);
        if (!parsed?.success) problems.push(`${route.operationId} request: zod ${JSON.stringify(parsed?.error.issues)}`);
        const mediaType = operation.requestBody.content['application/json'];
        problems.push(...jsonSchemaProblems(mediaType.schema, body).map((problem) => `${route.operationId} request: ${problem}`));
        expect(exampleOf(mediaType), route.operationId).toEqual(body);
      }
      if (query !== undefined) {
        const parsed = route.request.query?.safeParse(query);
        if (!parsed?.success) problems.push(`${route.operationId} query: zod ${JSON.stringify(parsed?.error.issues)}`);
      }
      if (route.request.params) {
        const params = Object.fromEntries(
          (operation.parameters as any[]).filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, parameter.schema.example]),
        );
        const parsed = route.request.params.safeParse(params);
        if (!parsed?.success) problems.push(`${route.operationId} path: zod ${JSON.stringify(parsed?.error.issues)}`);
      }

      for (const answer of route.protocolResponses ?? []) {
        if (answer.example === undefined) continue;
        if (!answer.schema?.safeParse(answer.example).success) problems.push(`${route.operationId} ${answer.status}: zod`);
        const documented = operation.responses[String(answer.status)].content['application/json'];
        expect(documented.example, `${route.operationId} ${answer.status}`).toEqual(answer.example);
        problems.push(...jsonSchemaProblems(documented.schema, answer.example).map((problem) => `${route.operationId} ${answer.status}: ${problem}`));
      }
      const parsed = route.response.schema.safeParse(response);
      if (!parsed.success) problems.push(`${route.operationId} response: zod ${JSON.stringify(parsed.error.issues)}`);
      const mediaType = Object.values(operation.responses[route.response.status].content)[0] as any;
      const served = exampleOf(mediaType);
      expect(route.response.raw ? served : (served as { data: unknown }).data, route.operationId).toEqual(response);
      problems.push(...jsonSchemaProblems(mediaType.schema, served).map((problem) => `${route.operationId} response: ${problem}`));
    }
    for (const [name, response] of Object.entries(resolved.components.responses as Record<string, any>)) {
      const mediaType = response.content?.['application/json'];
      if (mediaType?.example !== undefined) problems.push(...jsonSchemaProblems(mediaType.schema, mediaType.example).map((problem) => `${name}: ${problem}`));
    }
    expect(problems).toEqual([]);
  });

  it('follows one story: the ids of one example flow into the next operation', () => {
    const byId = Object.fromEntries(routes.map((route) => [route.operationId, route.examples]));
    const searchItem = (byId.searchIntent?.response as { items: { offer: { offerId: string } }[] }).items[0];
    expect((byId.startNegotiation?.body as { offerId: string }).offerId).toBe(searchItem?.offer.offerId);
    const session = byId.acceptNegotiation?.response as { sessionId: string; status: string };
    expect(session.status).toBe('accepted');
    expect((byId.createOrder?.body as { sessionId: string }).sessionId).toBe(session.sessionId);
    expect((byId.createOrder?.response as { sessionId: string }).sessionId).toBe(session.sessionId);
  });

  it('documents limit as an integer from 1 to 100, while the wire still takes only plain digits', () => {
    expect(built.components.parameters.Limit).toMatchObject({ in: 'query', name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    for (const limit of ['0x10', '1e2', '+5', '01', ' 5', '0', '101']) expect(PaginationQuery.safeParse({ limit }).success, limit).toBe(false);
    expect(PaginationQuery.parse({ limit: '100' }).limit).toBe(100);
  });

  it('shares headers, parameters and error responses by reference, each error response naming its codes', () => {
    expect(Object.keys(built.components.headers).sort()).toEqual(['Idempotent-Replayed', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']);
    for (const route of routes) {
      const operation = operationOf(built, route);
      for (const code of errorCodesFor(route)) {
        const reference = operation.responses[String(statusOf(code))];
        expect(reference.$ref, `${route.operationId} ${code}`).toMatch(/^#\/components\/responses\//);
        const component = built.components.responses[reference.$ref.split('/').pop()];
        expect(component.description, `${route.operationId} ${code}`).toContain(`\`${code}\`: ${ERROR_CODES[code].description}`);
        expect(component.content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      }
      if (route.method === 'POST') expect(operation.parameters).toContainEqual({ $ref: '#/components/parameters/Idempotency-Key' });
    }
    expect(built.components.responses.RateLimit.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
  });

  it('states the limits of strings, arrays and integers, and the unit of every price', () => {
    const unbounded: string[] = [];
    const walk = (node: any, at: string) => {
      if (Array.isArray(node)) return node.forEach((item, index) => walk(item, `${at}.${index}`));
      if (node === null || typeof node !== 'object') return;
      if (node.type === 'integer' && (node.minimum === undefined || node.maximum === undefined || !['int32', 'int64'].includes(node.format))) unbounded.push(at);
      for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') walk(value, `${at}.${key}`);
    };
    walk(built, '#');
    expect(unbounded).toEqual([]);
    expect(built.components.schemas.Money.properties.amount.description).toMatch(/minor unit/);
    expect(built.components.schemas.NegotiationSession.properties.unitPrice.description).toMatch(/minor unit/);
    expect(built.components.schemas.OrderItem.properties.unitPrice.description).toMatch(/minor unit/);
  });

  it('names its publisher, its servers and its tags, each tag described', () => {
    // A name only: no placeholder address that reaches nobody (docs/decisions/document-publisher-named.md).
    expect(built.info.contact).toEqual({ name: expect.any(String) });
    expect(built.info.license).toEqual({ name: expect.stringMatching(/Proprietary/) });
    expect(built.servers[0].url).toMatch(/^https:\/\//);
    const used = new Set(routes.map((route) => route.tag));
    expect(built.tags.map((tag: { name: string }) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of built.tags) expect(tag.description.length).toBeGreaterThan(20);
  });

  it('has a webhook per event type, with the signature headers and the retry schedule', () => {
    expect(Object.keys(built.webhooks).sort()).toEqual([...EVENT_TYPES, 'webhook.test'].sort());
    expect(Object.keys(WEBHOOK_EVENTS).sort()).toEqual(Object.keys(built.webhooks).sort());
    const delivery = resolved.webhooks['order.created'].post;
    expect(delivery.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'X-Marketplace-Signature',
      'X-Marketplace-Timestamp',
      'X-Marketplace-Event-Id',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(built.info.description).toContain('1 min, 5 min, 30 min, 2 h');
    const example = delivery.requestBody.content['application/json'].example;
    expect(jsonSchemaProblems(delivery.requestBody.content['application/json'].schema, example)).toEqual([]);
  });
});
