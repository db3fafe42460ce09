// The scope rule (shared/domain/scopes.ts): what a route asks of a key, and whether a key has it.
// Unit cases for each kind of route, and properties over every route scope and set of key scopes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grants, impliedRead, missingScope } from '../../shared/domain/scopes.ts';
import { SCOPES, type RouteScope, type Scope } from '../../shared/schemas/keys.ts';

const ROUTE_SCOPES: readonly (RouteScope | null)[] = [...SCOPES, 'main', 'any', null];
const routeScope = fc.constantFrom(...ROUTE_SCOPES);
const keyScopes = fc.uniqueArray(fc.constantFrom(...SCOPES), { maxLength: SCOPES.length });

describe('missingScope', () => {
  it('lets the main key call everything', () => {
    for (const scope of ROUTE_SCOPES) expect(missingScope({ scope }, { scopes: null })).toBeUndefined();
  });

  it('asks nothing of public routes and of routes any key may call', () => {
    expect(missingScope({ scope: null }, { scopes: [] })).toBeUndefined();
    expect(missingScope({ scope: 'any' }, { scopes: [] })).toBeUndefined();
  });

  it('refuses every restricted key on main-key routes, whatever its scopes', () => {
    expect(missingScope({ scope: 'main' }, { scopes: [...SCOPES] })).toBe('main');
  });

  it('names the scope a key lacks; write grants read of the same resource only', () => {
    expect(missingScope({ scope: 'orders:write' }, { scopes: ['orders:read'] })).toBe('orders:write');
    expect(missingScope({ scope: 'orders:read' }, { scopes: ['orders:write'] })).toBeUndefined();
    expect(missingScope({ scope: 'orders:read' }, { scopes: ['negotiations:write'] })).toBe('orders:read');
    expect(missingScope({ scope: 'catalog:read' }, { scopes: ['catalog:read'] })).toBeUndefined();
    expect(impliedRead('feeds:write')).toBe('feeds:read');
    expect(impliedRead('events:read')).toBeUndefined();
  });

  it('answers a missing scope exactly when the key’s scopes do not grant the route’s (property)', () => {
    fc.assert(
      fc.property(routeScope, keyScopes, (scope, scopes) => {
        const missing = missingScope({ scope }, { scopes });
        if (scope === null || scope === 'any') expect(missing).toBeUndefined();
        else if (scope === 'main') expect(missing).toBe('main');
        else expect(missing).toBe(grants(scopes, scope) ? undefined : scope);
      }),
    );
  });

  it('never refuses a key more for having more scopes (property)', () => {
    fc.assert(
      fc.property(routeScope, keyScopes, keyScopes, (scope, some, more) => {
        if (missingScope({ scope }, { scopes: some }) === undefined) expect(missingScope({ scope }, { scopes: [...new Set([...some, ...more])] })).toBeUndefined();
      }),
    );
  });

  it('grants a read scope with its write scope, and a write scope only by itself (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCOPES), keyScopes, (scope: Scope, scopes) => {
        const write = scope.replace(/:read$/, ':write') as Scope;
        if (scope.endsWith(':read')) expect(grants(scopes, scope)).toBe(scopes.includes(scope) || scopes.includes(write));
        else expect(grants(scopes, scope)).toBe(scopes.includes(scope));
      }),
    );
  });
});
