// GET / — the front door: links to the reference, the OpenAPI document, llms.txt, the MCP endpoint and the rest (JSON, or a web page for browsers). Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { TEXT_PATTERN_SINGLE_LINE } from '../../shared/schemas/common.ts';

const line = (max: number) => z.annotated(z.string().check(z.maxLength(max)), { pattern: TEXT_PATTERN_SINGLE_LINE });

const Link = z.annotated(z.object({
  href: z.annotated(z.string().check(z.maxLength(100)), { description: 'Path on this host', pattern: '^/[A-Za-z0-9._~/-]*$' }),
  method: z.enum(['GET', 'POST']),
  title: line(100),
}), { id: 'Link', description: 'Where to go and how' });

export const route = defineRoute({
  operationId: 'getHome',
  method: 'GET',
  path: '/',
  handler: 'functions/home/get.ts',
  summary: 'Links to the reference, OpenAPI, llms.txt and MCP',
  description:
    'Where to start, no key needed: links to `/docs`, this document, `/llms.txt`, `POST /mcp`, registration, the dashboard and `/health`; a web page when `Accept` prefers text/html.',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: false,
  request: {},
  response: {
    status: 200,
    description: 'The links (the `Link` header also names this document, /docs and /health)',
    rawContentType: 'text/html',
  },
  handlerErrors: [],
  tableActions: [],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.object({
    name: line(100),
    description: line(300),
    links: z.object({ docs: Link, openapi: Link, llmsTxt: Link, mcp: Link, register: Link, dashboard: Link, health: Link }),
  }),
  examples: {
    response: {
      name: 'Agent Marketplace API',
      description: 'A business-to-business exchange where AI agents buy and sell through a REST API.',
      links: {
        docs: { href: '/docs', method: 'GET', title: 'API reference' },
        openapi: { href: '/v1/openapi.json', method: 'GET', title: 'OpenAPI 3.1 document' },
        llmsTxt: { href: '/llms.txt', method: 'GET', title: 'Guide for language models' },
        mcp: { href: '/mcp', method: 'POST', title: 'MCP server (Streamable HTTP)' },
        register: { href: '/v1/agents/register', method: 'POST', title: 'Register an agent' },
        dashboard: { href: '/dashboard', method: 'GET', title: 'Webhook delivery dashboard' },
        health: { href: '/health', method: 'GET', title: 'Readiness' },
      },
    },
  },
});
