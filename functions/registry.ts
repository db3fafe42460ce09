// The index of the API's routes, MCP tools and event workers, as the CDK stack, the local gateway and
// runtime, the OpenAPI document, llms.txt and docs/endpoints.md read it. Its lists come from the
// generated module (registry.generated.ts, written by `npm run registry` from the files that declare
// each route, tool and worker); this module only puts them in their order and joins each route's row
// with its document. No handler imports it (lint forbids it): each bundles only its own route.
import { compareRoutes, withDocument, type RouteDefinition, type RouteWithDocument } from '../shared/http/route-table.ts';
import * as notFound from './fallback/not-found.route.ts';
import type { Tool } from './mcp/tool-declaration.ts';
import type { WorkerDefinition } from '../shared/workers.ts';
import { compositeToolModules, routeModules, workerRowModules } from './registry.generated.ts';

/** Every MCP tool (./mcp/tool-table.ts: those declared beside their routes, and the compositions). */
export { TOOLS as toolList } from './mcp/tool-table.ts';

/** Every route of the API, in the index's order (compareRoutes: by tag, path, method), each with its document. */
export const routeList: readonly RouteWithDocument[] = routeModules
  .filter((module) => module !== notFound)
  .map((module) => withDocument<RouteDefinition>(module))
  .sort(compareRoutes);

/** What answers anything no route matches (API Gateway's `$default`): not a route of the API. */
export const fallbackRoute: RouteWithDocument = withDocument(notFound);

/** Every event worker (its row beside its handler), by file. */
export const workers: readonly WorkerDefinition[] = workerRowModules.map((module) => module.worker);

/**
 * The file that declares a tool: its route's module (`mcpTool`), or for a composition its file in
 * functions/mcp/compositions/, named after the tool (the generator holds it to that).
 */
export function toolFileOf(tool: Tool): string {
  const composition = compositeToolModules.some((module) => module.tool.name === tool.name);
  if (composition) return `functions/mcp/compositions/${tool.name.replaceAll('_', '-')}.tool.ts`;
  return (tool.routes[0] as RouteDefinition).handler.replace(/\.ts$/, '.route.ts');
}
