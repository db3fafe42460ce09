// The route table is the single source for the local gateway, the OpenAPI document and the CDK
// stack (test/cdk checks the stack). This test fails if the served API disagrees with the table.
import { describe, expect, it } from 'vitest';
import { routeList } from '../../functions/route-index.ts';
import { documentedRoutes } from '../../shared/openapi/document.ts';
import { newClient } from '../support/runtime.ts';

const FALLBACK_MESSAGE = 'No endpoint at this path and method';

function concretePath(template: string): string {
  return template.replace(/\{(\w+)\}/g, 'whk_00000000000000000000000000');
}

describe('route table consumers', () => {
  // Each test from its own address: these requests carry no key and count against one source IP.
  it('the local gateway serves every row with its own handler', async () => {
    const client = newClient();
    for (const route of routeList) {
      const response = await client.send(route.method, concretePath(route.path));
      expect(response.json?.error ?? '', `${route.method} ${route.path}`).not.toContain(FALLBACK_MESSAGE);
    }
  });

  it('the local gateway answers anything else from the fallback', async () => {
    // Keyless requests are limited per source address (60 a minute): a new address every 50 routes.
    let client = newClient();
    for (const [index, route] of routeList.entries()) {
      if (index > 0 && index % 50 === 0) client = newClient();
      const response = await client.send('PUT', concretePath(route.path)); // no row uses PUT
      expect(response.status).toBe(404);
      expect(response.json.error).toContain(FALLBACK_MESSAGE);
    }
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
