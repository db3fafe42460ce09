// GET /docs — the API reference page (HTML): Redoc rendering /v1/openapi.json, its files served by GET /docs/assets/{file}. Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';

export const route = defineRoute({
  operationId: 'getReference',
  method: 'GET',
  path: '/docs',
  handler: 'functions/docs/get.ts',
  summary: 'The API reference page (HTML)',
  description:
    'This document rendered by Redoc for people, every operation and webhook searchable; works offline.',
  tag: 'Operations',
  auth: 'public',
  roles: ANY_ROLE,
  scope: null,
  rateLimited: false,
  request: {},
  response: { status: 200, description: 'The reference page', raw: true, contentType: 'text/html' },
  handlerErrors: [],
  tableActions: [],
  bundledFiles: ['reference-assets.json'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.annotated(z.string(), { maxLength: 65_536 }),
  examples: { response: '<!doctype html><html lang="en"><head><title>Agent Marketplace API reference</title>…' },
});
