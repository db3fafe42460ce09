// docs/endpoints.md, generated from the route index: every endpoint's method and path, the files that
// hold its route row and its handler, who may call it, and what it does. `npm run docs` rewrites it;
// test/unit/endpoints-doc.test.ts fails when it is out of date.
import { fallbackRoute, routeList } from '../functions/registry.ts';
import type { RouteDefinition } from '../shared/http/route-table.ts';

function who(route: RouteDefinition): string {
  if (route.auth === 'public') return 'anyone (no key)';
  return route.roles.length === 2 ? 'buyers, sellers' : `${route.roles.join(', ')}s only`;
}

function row(route: RouteDefinition, routeKey: string): string {
  const handler = route.handler;
  const routeModule = handler.replace(/\.ts$/, '.route.ts');
  return `| \`${routeKey}\` | [${handler}](../${handler}) | [${routeModule.split('/').at(-1)}](../${routeModule}) | ${who(route)} | ${route.summary} |`;
}

export function endpointsMarkdown(): string {
  const lines = [
    '# Endpoints',
    '',
    '<!-- Generated from the route index (functions/registry.ts) by `npm run docs`; do not edit by hand. -->',
    '',
    'Every endpoint is one Lambda function. Its code is the handler file; its route row (method, path,',
    'schemas, roles, errors, grants) sits beside it as `<action>.route.ts`. The OpenAPI document',
    '(`GET /v1/openapi.json`) has the request and response schemas.',
    '',
    '| endpoint | handler | route row | callers | what it does |',
    '|---|---|---|---|---|',
    ...routeList.map((route) => row(route, `${route.method} ${route.path}`)),
    row(fallbackRoute, 'anything else'),
    '',
  ];
  return lines.join('\n');
}
