// The route table is the single source for the local gateway, the OpenAPI document and the CDK
// stack (test/cdk checks the stack). This test fails if the served API disagrees with the table.
import { describe, expect, it } from 'vitest';
import { routeList } from '../../functions/registry.ts';
import { documentedRoutes } from '../../shared/openapi/document.ts';
import { newClient } from '../support/runtime.ts';

const FALLBACK_CODES = ['not-found', 'method-not-allowed'];
const FALLBACK_MESSAGE = /No endpoint at this path|does not take/;

function concretePath(template: string): string {
  return template.replace(/\{(\w+)\}/g, 'whk_00000000000000000000000000');
}

describe('route table consumers', () => {
  // Each test from its own address: these requests carry no key and count against one source IP.
  it('the local gateway serves every row with its own handler', async () => {
    for (const route of routeList) {
      const response = await newClient().send(route.method, concretePath(route.path));
      expect(response.json?.error ?? '', `${route.method} ${route.path}`).not.toMatch(FALLBACK_MESSAGE);
    }
  });

  it('the local gateway answers anything else from the fallback: 405 with the row methods for a known path', async () => {
    for (const route of routeList) {
      // A fresh address per request: the rows outnumber one address's anonymous requests a minute.
      const response = await newClient().send('PUT', concretePath(route.path)); // no row uses PUT
      expect(response.status, `PUT ${route.path}`).toBe(405);
      expect(response.json.code).toBe(FALLBACK_CODES[1]);
      const served = routeList.filter((other) => other.path === route.path).map((other) => other.method);
      expect(response.headers.allow?.split(', ').sort()).toEqual([...new Set(served)].sort());
    }
    const unknown = await newClient().send('PUT', '/v1/no-such-resource');
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe(FALLBACK_CODES[0]);
  });

  it('the OpenAPI document lists exactly the rows, but the pages for people', async () => {
    const client = newClient();
    const document = (await client.get('/v1/openapi.json')).json;
    const operations = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    );
    const documented = documentedRoutes(routeList);
    expect(documented.length).toBeLessThan(routeList.length);
    expect(operations.sort()).toEqual(documented.map((route) => `${route.method} ${route.path} ${route.operationId}`).sort());
  });
});
