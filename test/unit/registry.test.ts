// The index of routes, MCP tools and workers is generated from the files that declare them
// (lib/registry-source.ts): the committed module must be what `npm run registry` writes now, so that a
// new or removed .route.ts cannot go unnoticed by the stack, the local runtime and the documents.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REGISTRY_FILE, registrySource } from '../../lib/registry-source.ts';
import { compareRoutes } from '../../shared/http/route-table.ts';
import { routeList } from '../../functions/registry.ts';

describe('the generated index (functions/registry.generated.ts)', () => {
  it('is up to date with the files that declare routes, tools and workers (run npm run registry)', async () => {
    const expected = await registrySource('.');
    if (readFileSync(REGISTRY_FILE, 'utf8') !== expected) {
      throw new Error(`${REGISTRY_FILE} is stale: a route, tool or worker file was added, removed or renamed. Run \`npm run registry\` (or \`npm run docs\`) and commit the result.`);
    }
  });

  it('lists the routes by tag, path and method, whatever the files are called', () => {
    const keys = routeList.map((route) => `${route.tag} ${route.path} ${route.method}`);
    expect([...routeList].sort(compareRoutes).map((route) => `${route.tag} ${route.path} ${route.method}`)).toEqual(keys);
    expect(routeList[0]).toMatchObject({ tag: 'Agents' });
    expect(routeList.at(-1)).toMatchObject({ tag: 'MCP' });
  });
});
