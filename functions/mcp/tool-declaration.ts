// How an MCP tool is declared, in one of two homes (docs/decisions/registries-from-files.md):
// - beside its route, in the route's module (`<action>.route.ts`): `export const mcpTool = (): RouteTool
//   => ({ name, title, description, annotations, call })` for a tool that is one call of that route, its
//   arguments the route's parameters side by side; the table (tool-table.ts) adds the route, the
//   arguments' schema and check, and the result's schema, all from the row;
// - as a composition (`functions/mcp/compositions/<tool>.tool.ts`, `export const tool = defineTool({…})`)
//   for a tool that calls several routes, or takes arguments of its own (a feed file inline).
// The generated index (functions/registry.generated.ts) finds both. This module holds only types and
// values that build nothing: a handler that imports its route module never runs its `mcpTool`, so
// esbuild leaves the declaration, and everything it names, out of the handler's bundle.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { ConflictError, type Marketplace, type RequestOptions } from '../../sdk/typescript/src/index.ts';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import type { RouteArguments, ToolInput } from './tool-arguments.ts';
import type { ToolOutput } from './tool-results.ts';

export type { FeedUpload, QueryParams, RequestBody } from '../../sdk/typescript/src/index.ts';
export type { RouteArguments } from './tool-arguments.ts';

/** What a route's module says about its tool (`mcpTool`); the rest comes from its row. */
export interface RouteTool {
  /** The tool's name, exactly as agents call it. */
  name: string;
  title: string;
  /** For a language model: when to use it, units, what usually comes next. */
  description: string;
  annotations: ToolAnnotations;
  /** `main`: a tool for the agent's main key only, whatever its routes' scopes (the owner's approval queue). */
  scope?: 'main';
  /** Its one SDK call, with the route's arguments as checked by the route's schemas. */
  call(marketplace: Marketplace, args: RouteArguments): Promise<unknown>;
}

/** A whole tool: what the table serves, and what a composition declares. */
export interface ToolDefinition<T> {
  /** The tool's name, exactly as agents call it. */
  name: string;
  title: string;
  /** For a language model: when to use it, units, what usually comes next. */
  description: string;
  /** The route rows it calls; the tool is listed for the roles and scopes all of them allow. */
  routes: readonly RouteDefinition[];
  input: ToolInput<T>;
  /** The schema of the result (the route's `data`, compact); MCP clients check `structuredContent` against it. */
  output: ToolOutput;
  annotations: ToolAnnotations;
  /** `main`: a tool for the agent's main key only, whatever its routes' scopes (the owner's approval queue). */
  scope?: 'main';
  /** Fewer roles than its routes allow (the approval queue is a buyer's). */
  roles?: readonly ('buyer' | 'seller')[];
  call(marketplace: Marketplace, args: T): Promise<unknown>;
}

/** A tool, its argument type erased (each is type-checked where it is declared). */
export type Tool = ToolDefinition<unknown>;

/** Type-checks a composition against its own argument type; the table holds tools side by side. */
export function defineTool<T>(definition: ToolDefinition<T>): Tool {
  return definition;
}

/** A read: no change, safe to repeat (docs/decisions/mcp-annotations.md). */
export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A change; `idempotent` when calling again with the same arguments changes nothing more (the record's state refuses a repeat). */
export const change = (options: { destructive?: boolean; idempotent: boolean }): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: options.destructive ?? false,
  idempotentHint: options.idempotent,
  openWorldHint: false,
});

/** The SDK call's options: the caller's idempotencyKey, when it gave one (the SDK makes one otherwise). */
export const idempotency = (args: { idempotencyKey: string | undefined }): RequestOptions | undefined =>
  args.idempotencyKey === undefined ? undefined : { idempotencyKey: args.idempotencyKey };

/** The first page of a list (`{items, nextCursor}`, and an intent's interpretation); `cursor: nextCursor` for the next. */
export const firstPage = async <T>(page: PromiseLike<T>): Promise<T> => await page;

/**
 * A state move whose repeat answers the record as it is, when it already is where the move leads
 * (a repeated complete_order answers the completed order), rather than the API's conflict: an agent
 * that retries after an unclear outcome learns that it is done. Any other conflict stays one.
 */
export async function repeatable<T extends { status: string }>(move: () => Promise<T>, read: () => Promise<T>, reached: string): Promise<T> {
  try {
    return await move();
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const current = await read();
    if (current.status === reached) return current;
    throw error;
  }
}

/** A path parameter of the route by its route name (`id`, `sessionId`), as checked (its argument may be named otherwise: `orderId`). */
export const pathParameter = (args: RouteArguments, name = 'id'): string => args.params[name] as string;

// Money and lists, said once for every description that needs it.
export const MONEY = 'Prices are integers in the minor unit of their currency (cents for USD and EUR, yen for JPY): 1150 USD is $11.50.';
export const PAGED = 'Returns {items, nextCursor}; call again with cursor = nextCursor for more (nextCursor null: no more).';
