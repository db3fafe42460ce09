// docs/endpoints.md is the one-step lookup from an endpoint's path to its code: it must match the routes.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpointsMarkdown } from '../../lib/endpoints-doc.ts';
import { fallbackRoute, routeList } from '../../functions/route-index.ts';

describe('docs/endpoints.md', () => {
  it('is up to date with the route index (run npm run docs)', () => {
    expect(readFileSync('docs/endpoints.md', 'utf8')).toBe(endpointsMarkdown());
  });

  it('links files that exist', () => {
    for (const route of [...routeList, fallbackRoute]) {
      expect(existsSync(route.handler), route.handler).toBe(true);
      expect(existsSync(route.handler.replace(/\.ts$/, '.route.ts')), route.handler).toBe(true);
    }
  });
});
