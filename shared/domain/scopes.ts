// The scope rule (contract §5.1), pure: what a route asks of the key that calls it, and whether the
// caller's key has it. The shared request pipeline asks it for every authenticated request (before the
// role guard, which still applies: a scope never widens the role), from the route row's `scope`; no
// handler checks scopes itself.
import type { RouteScope, Scope } from '../schemas/keys.ts';

/** The key as the rule sees it: the main key has every scope (null); a restricted key its list. */
export interface ScopedCaller {
  scopes: readonly Scope[] | null;
}

/** `orders:write` → `orders:read`: a write scope implies the read scope of the same resource. */
export function impliedRead(scope: Scope): Scope | undefined {
  return scope.endsWith(':write') ? (scope.replace(/:write$/, ':read') as Scope) : undefined;
}

/** Whether the key's scopes grant `needed` (itself, or the write scope of its resource). */
export function grants(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.some((scope) => scope === needed || impliedRead(scope) === needed);
}

/**
 * The scope the caller's key lacks for the route, or undefined when it may call it. Public routes
 * (null) and routes any key may call (`any`) need nothing; `main` routes refuse every restricted key.
 * A scope never widens the role: the role guard runs after this rule and is not consulted here.
 */
export function missingScope(route: { scope: RouteScope | null }, caller: ScopedCaller): Exclude<RouteScope, 'any'> | undefined {
  const needed = route.scope;
  if (needed === null || needed === 'any' || caller.scopes === null) return undefined;
  if (needed === 'main') return 'main';
  return grants(caller.scopes, needed) ? undefined : needed;
}
