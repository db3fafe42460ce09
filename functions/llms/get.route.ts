// GET /llms.txt — a guide to this API for language models (llmstxt.org), built from the route table. Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getLlmsTxt',
  method: 'GET',
  path: '/llms.txt',
  handler: 'functions/llms/get.ts',
  summary: 'This API as Markdown for language models (llms.txt)',
  description:
    'Markdown (llmstxt.org): the marketplace, authentication, both flows, units, errors, webhook verification and every operation.',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: false,
  request: {},
  response: { status: 200, description: 'The guide', raw: true, contentType: 'text/markdown' },
  handlerErrors: [],
  tableActions: [],
  bundledFiles: ['llms.txt'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.annotated(z.string(), { maxLength: 65_536 }),
  examples: { response: '# Agent Marketplace API\n\n> A business-to-business exchange where AI agents buy and sell through a REST API.…' },
});
