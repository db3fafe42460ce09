// The tool catalogue (./server.ts: ToolCatalogue): every tool of the table as tools/list shows it, with
// the roles it is listed for. Built at synth into POST /mcp's mcp-tools.json (lib/bundled-files.ts), and
// by the stdio server at start; its JSON Schemas are zod's conversion of the tools' schemas, which no
// cold start of POST /mcp pays for (docs/decisions/mcp-deferred-tool-table.md).
import * as z from '../../shared/schemas/zod.ts';
import type { ToolDescription } from './protocol.ts';
import type { ToolCatalogue } from './server.ts';
import { TOOLS, rolesOf, type Tool } from './tools.ts';

const JSON_SCHEMA_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/**
 * A tool's tools/list entry. The arguments' schema is the tool's own (tool-schemas.ts: the tool checks
 * its arguments itself, so that a mistake is answered as the API answers it); the result's is zod's
 * conversion of the tool's output schema, as the MCP SDK gave it.
 */
export function toolListing(tool: Tool): ToolDescription {
  // Members in the order of the MCP SDK's conversion (an open object's, then the rest), so that the list is the same text as before.
  const { type, properties, additionalProperties, ...rest } = tool.input.schema;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { $schema: JSON_SCHEMA_DRAFT_07, type, properties, additionalProperties, ...rest },
    annotations: { title: tool.title, ...tool.annotations },
    // Every tool runs at once: none runs as a task (MCP's long-running requests).
    execution: { taskSupport: 'forbidden' },
    outputSchema: z.toJSONSchema(tool.output, { target: 'draft-7', io: 'output' }),
  };
}

/** The catalogue of `tools` (the whole table unless told), in their order. */
export function buildToolCatalogue(tools: readonly Tool[] = TOOLS): ToolCatalogue {
  return { tools: tools.map((tool) => ({ roles: rolesOf(tool), listing: toolListing(tool) })) };
}
