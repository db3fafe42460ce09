// docs/endpoints.md, generated from the index (functions/registry.ts): every endpoint's method and path,
// the files that hold its route row and its handler, the MCP tool that calls it, who may call it, and
// what it does. `npm run docs` rewrites it; test/unit/endpoints-doc.test.ts fails when it is out of date.
import { rolesOf } from '../functions/mcp/tool-table.ts';
import { fallbackRoute, routeList, toolFileOf, toolList } from '../functions/registry.ts';
import type { RouteDefinition } from '../shared/http/route-table.ts';

/** The MCP tools that call the route: its own (declared in its .route.ts), or a composition (functions/mcp/compositions/). */
function toolsOf(route: RouteDefinition): string {
  const tools = toolList.filter((tool) => tool.routes.some((called) => called.operationId === route.operationId)).map((tool) => `\`${tool.name}\``);
  return tools.length > 0 ? tools.join(', ') : '–';
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A tool by its name: the file that declares it, the endpoints it calls, the roles it is listed for. */
function toolRow(tool: (typeof toolList)[number]): string {
  const file = toolFileOf(tool);
  const calls = tool.routes.map((route) => `\`${route.method} ${route.path}\``).join(', ');
  return `| \`${tool.name}\` | [${file}](../${file}) | ${calls} | ${rolesOf(tool).map((role) => `${role}s`).join(', ')} |`;
}
function who(route: RouteDefinition): string {
  if (route.auth === 'public') return 'anyone (no key)';
  return route.roles.length === 2 ? 'buyers, sellers' : `${route.roles.join(', ')}s only`;
}

function row(route: RouteDefinition, routeKey: string): string {
  const handler = route.handler;
  const routeModule = handler.replace(/\.ts$/, '.route.ts');
  return `| \`${routeKey}\` | [${handler}](../${handler}) | [${routeModule.split('/').at(-1)}](../${routeModule}) | ${toolsOf(route)} | ${who(route)} | ${route.summary} |`;
}

export function endpointsMarkdown(): string {
  const lines = [
    '# Endpoints and MCP tools',
    '',
    '<!-- Generated from the route index (functions/registry.ts) by `npm run docs`; do not edit by hand. -->',
    '',
    'Every endpoint is one Lambda function. Its code is the handler file; its route row (method, path,',
    'schemas, roles, errors, grants) sits beside it as `<action>.route.ts`, with the MCP tool that is one',
    'call of it (`mcpTool`). A tool that composes routes is a file of `functions/mcp/compositions/`, named',
    'after the tool. The OpenAPI document (`GET /v1/openapi.json`) has the request and response schemas.',
    '',
    '| endpoint | handler | route row | MCP tool | callers | what it does |',
    '|---|---|---|---|---|---|',
    ...routeList.map((route) => row(route, `${route.method} ${route.path}`)),
    row(fallbackRoute, 'anything else'),
    '',
    '## MCP tools',
    '',
    'Served by `POST /mcp` and `npm run mcp` (functions/mcp/server.ts), each one SDK call per route it calls.',
    '',
    '| tool | declared in | calls | listed for |',
    '|---|---|---|---|',
    ...[...toolList].sort(byName).map(toolRow),
    '',
  ];
  return lines.join('\n');
}
