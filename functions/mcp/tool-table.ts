// The MCP tool table: every tool, from the index generated from the files (../registry.generated.ts):
// the tool a route declares beside its row (its .route.ts's `mcpTool`), completed here from that row,
// and the compositions (./compositions/*.tool.ts). A tool is a client of the public API: each call is
// one SDK call with the agent's key, authenticated, rate-limited, validated and idempotent as over HTTP
// (docs/decisions/mcp-tools-call-the-api.md). Both transports serve this table (./server.ts).
import { compareRoutes, withDocument, type RouteDefinition, type RouteDocument } from '../../shared/http/route-table.ts';
import type { Role } from '../../shared/schemas/agents.ts';
import { compositeToolModules, toolRouteModules } from '../registry.generated.ts';
import type { RouteTool, Tool } from './tool-declaration.ts';
import { routeInput } from './tool-arguments.ts';
import { dataOf } from './tool-results.ts';

/**
 * The tool a route declares (`mcpTool`), with what its row gives: the route it calls, its arguments
 * (the route's parameters side by side, checked by its schemas) and its result (the route's `data`).
 */
function routeTool(module: { route: RouteDefinition; routeDocument: () => RouteDocument; mcpTool: () => RouteTool }): Tool {
  const route = withDocument(module);
  return { ...module.mcpTool(), routes: [route], input: routeInput(route), output: dataOf(route) };
}

/** Every tool, in the order tools/list shows them: the index's order of the first route each calls. */
export const TOOLS: readonly Tool[] = [...toolRouteModules.map(routeTool), ...compositeToolModules.map((module) => module.tool)].sort((a, b) =>
  compareRoutes(a.routes[0] as RouteDefinition, b.routes[0] as RouteDefinition),
);

/** The roles that may call every route of the tool. */
export function rolesOf(tool: Tool): Role[] {
  return (['buyer', 'seller'] as const).filter((role) => tool.routes.every((route) => route.roles.includes(role)));
}

/** The tools an agent of this role may call, in table order. */
export function toolsFor(role: Role): Tool[] {
  return TOOLS.filter((tool) => rolesOf(tool).includes(role));
}

export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((tool) => tool.name));
