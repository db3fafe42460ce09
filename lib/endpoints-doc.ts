// docs/endpoints.md, generated from the index (functions/registry.ts): every endpoint's method and path,
// the files that hold its route row and its handler, the MCP tool that calls it, who may call it, and
// what it does; every MCP tool by name with the file that declares it; every event worker by id with
// its handler, its row and its trigger. `npm run docs` rewrites it; test/unit/endpoints-doc.test.ts
// fails when it is out of date.
import { rolesOf } from '../functions/mcp/tool-table.ts';
import { fallbackRoute, routeList, toolFileOf, toolList, workers } from '../functions/registry.ts';
import type { RouteDefinition } from '../shared/http/route-table.ts';
import type { WorkerDefinition, WorkerTrigger } from '../shared/workers.ts';

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

/** What starts a worker, in a few words. */
function triggerOf(trigger: WorkerTrigger): string {
  switch (trigger.type) {
    case 's3':
      return `a file under \`${trigger.prefix}\` in the ${trigger.bucket} bucket`;
    case 'schedule':
      return trigger.everyMinutes === 1 ? 'every minute' : `every ${trigger.everyMinutes} minutes`;
    case 'stream':
      return `the table's stream: ${trigger.entities.map((entity) => `\`${entity}\``).join(', ')} items`;
    case 'sqs':
      return `the ${trigger.queue} queue`;
    case 'logs':
      return 'the API functions\' access-log lines (a log subscription)';
    case 'deploy':
      return 'every deploy of the stack and start of the local runtime';
  }
}

function workerRow(worker: WorkerDefinition): string {
  const row = worker.handler.replace(/\.worker\.ts$/, '.worker-row.ts');
  return `| \`${worker.id}\`${worker.stages && !worker.stages.includes('live') ? ' (sandbox only)' : ''} | [${worker.handler}](../${worker.handler}) | [${row.split('/').at(-1)}](../${row}) | ${triggerOf(worker.trigger)} | ${worker.description} |`;
}

export function endpointsMarkdown(): string {
  const lines = [
    '# Endpoints, MCP tools and workers',
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
    '## Workers',
    '',
    'Functions started by events rather than requests. Each row (`<name>.worker-row.ts`: its trigger, grants',
    'and time limit) sits beside its handler (`<name>.worker.ts`); the CDK stack and the local runtime read the',
    'same rows. `npm run admin -- replay-dead-letters <worker>` takes the id.',
    '',
    '| worker | handler | row | started by | what it does |',
    '|---|---|---|---|---|',
    ...[...workers].sort((a, b) => (a.id < b.id ? -1 : 1)).map(workerRow),
    '',
  ];
  return lines.join('\n');
}
