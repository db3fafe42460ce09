// The MCP tool table: every tool, from the index generated from the files (../registry.generated.ts):
// the tool a route declares beside its row (its .route.ts's `mcpTool`), completed here from that row,
// and the compositions (./compositions/*.tool.ts). A tool is a client of the public API: each call is
// one SDK call with the agent's key, authenticated, rate-limited, validated and idempotent as over HTTP
// (docs/decisions/mcp-tools-call-the-api.md). Both transports serve this table (./server.ts).
import { compareRoutes, withDocument, type RouteDefinition, type RouteDocument } from '../../shared/http/route-table.ts';
import { missingScope, type ScopedCaller } from '../../shared/domain/scopes.ts';
import type { Role } from '../../shared/schemas/agents.ts';
import { compositeToolModules, toolRouteModules } from '../registry.generated.ts';
import type { RouteTool, Tool } from './tool-declaration.ts';
import { routeInput } from './tool-arguments.ts';
import { resultOf, toolOutput } from './tool-results.ts';

/**
 * The tool a route declares (`mcpTool`), with what its row gives: the route it calls, its arguments
 * (the route's parameters side by side, checked by its schemas) and its result (the route's `data`,
 * from its document, read only when tools/list first shows it).
 */
function routeTool(module: { route: RouteDefinition; routeDocument: () => RouteDocument; mcpTool: () => RouteTool }): Tool {
  return { ...module.mcpTool(), routes: [module.route], input: routeInput(module.route), output: toolOutput(() => resultOf(withDocument(module))) };
}

/** The key scope a tool needs (its routes' and its own), or undefined when any key may call it. */
export function scopeOf(tool: Pick<Tool, 'routes' | 'scope'>): string | undefined {
  if (tool.scope) return tool.scope;
  const scopes = [...new Set(tool.routes.map((route) => route.scope).filter((scope) => scope !== null && scope !== 'any'))];
  return scopes.length > 0 ? scopes.join(' and ') : undefined;
}

/**
 * The tool's description with the scope it needs and the refusal a key without it gets (every tool a
 * restricted key can be refused says so), from its routes' rows; what to do about that refusal is said
 * once, in the server's instructions and in the refusal's own message (tools/list stays within 60 KB).
 */
function withScope(tool: Tool): Tool {
  const scope = scopeOf(tool);
  if (scope === undefined) return tool;
  const refusal =
    scope === 'main'
      ? 'Main key only (else auth/insufficient-scope).'
      : `Scope ${scope} (else auth/insufficient-scope).`;
  return { ...tool, description: `${tool.description} ${refusal}` };
}

/** Every tool, in the order tools/list shows them: the index's order of the first route each calls. */
export const TOOLS: readonly Tool[] = [...toolRouteModules.map(routeTool), ...compositeToolModules.map((module) => module.tool)]
  .map(withScope)
  .sort((a, b) => compareRoutes(a.routes[0] as RouteDefinition, b.routes[0] as RouteDefinition));

/** The roles that may call every route of the tool. */
export function rolesOf(tool: Tool): Role[] {
  return (['buyer', 'seller'] as const).filter((role) => tool.routes.every((route) => route.roles.includes(role)) && (tool.roles ?? [role]).includes(role));
}

/** Who calls the tools: the key's agent's role, the key's scopes (null: the main key) and its environment. */
export interface ToolCaller extends ScopedCaller {
  role: Role;
  /** A test key (`mk_test_`): the sandbox's tools are its too. */
  sandbox: boolean;
}

/** A tool of the sandbox: one of its routes exists in the test stage only (the test helpers). */
export const isSandboxTool = (tool: Pick<Tool, 'routes'>): boolean => tool.routes.some((route) => route.stages !== undefined && !route.stages.includes('live'));

/** Why a caller may not call a tool, in the API's words; undefined when it may. */
export interface ToolRefusal {
  code: 'not-found' | 'auth/forbidden' | 'auth/insufficient-scope';
  status: 404 | 403;
  message: string;
  details: { path: string; message: string }[];
}

/**
 * Whether the caller may call the tool, by the rules its routes' API requests meet: a sandbox tool is
 * unknown to a live key (its routes are not deployed there), the role guard, then the key's scope
 * (shared/domain/scopes.ts: the pipeline's own rule, from the same route rows).
 */
export function refusalOf(tool: Tool | undefined, name: string, caller: ToolCaller): ToolRefusal | undefined {
  if (!tool || (isSandboxTool(tool) && !caller.sandbox)) {
    return { code: 'not-found', status: 404, message: `There is no tool named ${JSON.stringify(name)} for your key; tools/list shows the tools your key may call`, details: [] };
  }
  const roles = rolesOf(tool);
  if (!roles.includes(caller.role)) {
    return { code: 'auth/forbidden', status: 403, message: `${name} is a tool for ${roles.join(' or ')} agents; your key is a ${caller.role}'s (tools/list shows yours)`, details: [] };
  }
  for (const route of [...tool.routes, ...(tool.scope ? [{ scope: tool.scope }] : [])]) {
    const missing = missingScope(route, caller);
    if (missing === 'main') {
      return { code: 'auth/insufficient-scope', status: 403, message: `${name} is for the agent’s main key only; this restricted key may not call it: ask the key’s owner to do it with the main key`, details: [{ path: 'scope', message: 'needs main' }] };
    }
    if (missing !== undefined) {
      return { code: 'auth/insufficient-scope', status: 403, message: `${name} needs the ${missing} scope, which this key lacks: ask the key’s owner for a key with it (tools/list shows what this key may call)`, details: [{ path: 'scope', message: `needs ${missing}` }] };
    }
  }
  return undefined;
}

/** The tools the caller may call, in table order. */
export function toolsFor(caller: ToolCaller): Tool[] {
  return TOOLS.filter((tool) => refusalOf(tool, tool.name, caller) === undefined);
}

const TOOLS_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** The tool of that name, if any. */
export const toolNamed = (name: string): Tool | undefined => TOOLS_BY_NAME.get(name);

export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((tool) => tool.name));
