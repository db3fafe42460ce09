// The fallback's table of paths and methods (shared/http/route-methods.ts): built from the route table,
// matched as API Gateway matches path templates, so that a known path with another method is 405 with
// the right Allow header and anything else 404.
import { describe, expect, it } from 'vitest';
import { routeList } from '../../functions/registry.ts';
import { RouteMethods, routeMethodsTable } from '../../shared/http/route-methods.ts';

describe('route methods', () => {
  const methods = new RouteMethods(routeMethodsTable(routeList));

  it('lists the methods every row serves at its own path', () => {
    for (const route of routeList) {
      const path = route.path.replace(/\{\w+\+?\}/g, 'x_1');
      expect(methods.allowed(path), `${route.method} ${route.path}`).toContain(route.method);
    }
  });

  it('names each method of a path once, sorted', () => {
    expect(methods.allowed('/v1/webhooks/whk_1')).toEqual(['DELETE', 'GET', 'PATCH']);
    expect(methods.allowed('/v1/webhooks')).toEqual(['GET', 'POST']);
    expect(methods.allowed('/v1/orders/ord_1')).toEqual(['GET']);
    expect(methods.allowed('/v1/create-order')).toEqual(['POST']);
  });

  it('matches a parameter to one segment only, and nothing to an unknown path', () => {
    expect(methods.allowed('/v1/orders/ord_1/cancel')).toEqual(['POST']);
    expect(methods.allowed('/v1/orders/ord_1/cancel/now')).toEqual([]);
    expect(methods.allowed('/v1/orders/')).toEqual([]);
    expect(methods.allowed('/v1/nothing')).toEqual([]);
    expect(methods.allowed('/v2/orders')).toEqual([]);
  });

  it('matches a greedy parameter to the rest of the path, and escapes the templates’ dots', () => {
    const table = routeMethodsTable([{ method: 'GET', path: '/files/{path+}' }, { method: 'GET', path: '/v1/openapi.json' }]);
    const matcher = new RouteMethods(table);
    expect(matcher.allowed('/files/a/b/c')).toEqual(['GET']);
    expect(matcher.allowed('/files/')).toEqual([]);
    expect(matcher.allowed('/v1/openapiXjson')).toEqual([]);
  });

  it('is small: paths and methods only', () => {
    expect(JSON.stringify(routeMethodsTable(routeList)).length).toBeLessThan(4_000);
  });
});
