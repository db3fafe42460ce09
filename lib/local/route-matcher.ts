// Request → route-table row, as API Gateway HTTP API picks routes: an exact path wins over a
// parameterised one, a `{param}` matches one segment, a greedy `{proxy+}` the rest; anything else
// (unknown path or method) goes to the `$default` route.
import type { RouteDefinition } from '../../shared/http/route-table.ts';

export interface RouteMatch {
  route: RouteDefinition;
  /** `GET /v1/webhooks/{id}`, or `$default` for the fallback. */
  routeKey: string;
  /** Decoded, as API Gateway passes them; undefined when the route has none. */
  pathParameters: Record<string, string> | undefined;
}

interface ParameterisedRoute {
  route: RouteDefinition;
  routeKey: string;
  pattern: RegExp;
  names: string[];
  /** Static segments: more of them is a more specific route. */
  staticSegments: number;
  greedy: boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(route: RouteDefinition): ParameterisedRoute {
  const names: string[] = [];
  let staticSegments = 0;
  let greedy = false;
  const source = route.path
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)(\+?)\}$/.exec(segment);
      if (!parameter) {
        if (segment !== '') staticSegments++;
        return escapeRegExp(segment);
      }
      names.push(parameter[1] as string);
      if (parameter[2]) {
        greedy = true;
        return '(.+)';
      }
      return '([^/]+)';
    })
    .join('/');
  return { route, routeKey: `${route.method} ${route.path}`, pattern: new RegExp(`^${source}$`), names, staticSegments, greedy };
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export class RouteMatcher {
  private readonly exact = new Map<string, RouteMatch>();
  private readonly parameterised = new Map<string, ParameterisedRoute[]>();
  private readonly fallbackMatch: RouteMatch;

  constructor(routes: readonly RouteDefinition[], fallback: RouteDefinition) {
    for (const route of routes) {
      if (!route.path.includes('{')) {
        this.exact.set(`${route.method} ${route.path}`, { route, routeKey: `${route.method} ${route.path}`, pathParameters: undefined });
        continue;
      }
      const list = this.parameterised.get(route.method) ?? [];
      list.push(compile(route));
      this.parameterised.set(route.method, list);
    }
    for (const list of this.parameterised.values()) {
      list.sort((a, b) => Number(a.greedy) - Number(b.greedy) || b.staticSegments - a.staticSegments);
    }
    this.fallbackMatch = { route: fallback, routeKey: '$default', pathParameters: undefined };
  }

  match(method: string, path: string): RouteMatch {
    const exact = this.exact.get(`${method} ${path}`);
    if (exact) return exact;
    for (const candidate of this.parameterised.get(method) ?? []) {
      const found = candidate.pattern.exec(path);
      if (!found) continue;
      const pathParameters: Record<string, string> = {};
      candidate.names.forEach((name, index) => (pathParameters[name] = decode(found[index + 1] as string)));
      return { route: candidate.route, routeKey: candidate.routeKey, pathParameters };
    }
    return this.fallbackMatch;
  }
}
