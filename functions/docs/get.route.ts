// GET /docs — the API reference page (HTML): Redoc rendering /v1/openapi.json, its files served by GET /docs/assets/{file}. Handler: ./get.ts
import * as z from '../../shared/schemas/zod.ts';
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';

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
  rateLimited: false,
  request: {},
  response: { status: 200, description: 'The reference page', schema: z.annotated(z.string(), { maxLength: 65_536 }), raw: true, contentType: 'text/html' },
  examples: { response: '<!doctype html><html lang="en"><head><title>Agent Marketplace API reference</title>…' },
  handlerErrors: [],
  tableActions: [],
  bundledFiles: ['reference-assets.json'],
});
