// GET / — the front door: links to the reference, the OpenAPI document, llms.txt, the MCP endpoint and the rest (JSON, or a web page for browsers). Handler: ./get.ts
import * as z from 'zod';
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';

const Link = z.object({
  href: z.string().meta({ description: 'Path on this host' }),
  method: z.enum(['GET', 'POST']),
  title: z.string(),
});

export const route = defineRoute({
  operationId: 'getHome',
  method: 'GET',
  path: '/',
  handler: 'functions/home/get.ts',
  summary: 'The front door: links to the API reference, the OpenAPI document, llms.txt and the MCP endpoint',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  rateLimited: false,
  request: {},
  response: {
    status: 200,
    description: 'The links; a web page (text/html) instead when Accept prefers text/html to application/json, as browsers do. A Link header names the OpenAPI document (rel="service-desc"), the reference (rel="service-doc") and /health (rel="status").',
    schema: z.object({
      name: z.string(),
      description: z.string(),
      links: z.object({ docs: Link, openapi: Link, llmsTxt: Link, mcp: Link, register: Link, dashboard: Link, health: Link }),
    }),
    rawContentType: 'text/html',
  },
  handlerErrors: [],
  tableActions: [],
});
