// Which methods each path of the API serves, for the answer to a request no route matches: a known path
// with a method it does not serve is 405 `method-not-allowed` with an Allow header, `OPTIONS` on a known
// path is 204 with the same Allow header, anything else 404 (docs/decisions/method-not-allowed.md). The
// table is the route table's method and path templates only, built at synth (lib/bundled-files.ts:
// route-methods.json) and read by the fallback function at cold start.

/** Path template (API Gateway syntax, `/v1/orders/{id}`) → the methods its routes serve. */
export type RouteMethodsTable = Readonly<Record<string, readonly string[]>>;

/** The table of some routes: each path template with its methods, in a stable order. */
export function routeMethodsTable(routes: readonly { method: string; path: string }[]): RouteMethodsTable {
  const table: Record<string, string[]> = {};
  for (const { method, path } of routes) table[path] = [...new Set([...(table[path] ?? []), method])].sort();
  return table;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A path template as a pattern, matching as API Gateway does: `{name}` one segment, `{name+}` the rest. */
function templatePattern(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => {
      const parameter = /^\{\w+(\+?)\}$/.exec(segment);
      if (!parameter) return escapeRegExp(segment);
      return parameter[1] ? '.+' : '[^/]+';
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

export class RouteMethods {
  private readonly patterns: readonly { pattern: RegExp; methods: readonly string[] }[];

  constructor(table: RouteMethodsTable) {
    this.patterns = Object.entries(table).map(([template, methods]) => ({ pattern: templatePattern(template), methods }));
  }

  /** The methods some route serves at `path` (sorted); empty when no route has this path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: served } of this.patterns) if (pattern.test(path)) for (const method of served) methods.add(method);
    return [...methods].sort();
  }
}
