// GET /v1/offers/{id} — one offer. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Offer, OfferIdParams, SellerOffer } from '../../shared/schemas/catalog.ts';
import * as z from '../../shared/schemas/zod.ts';
import { EXAMPLE_OFFER } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getOffer',
  method: 'GET',
  path: '/v1/offers/{id}',
  handler: 'functions/offers/get.ts',
  summary: 'An offer',
  description:
    'Its seller also sees the private policy; a withdrawn offer is 404 to others. Next: `POST /v1/negotiate`.',
  tag: 'Catalog',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'catalog:read',
  rateLimited: true,
  request: { params: OfferIdParams },
  response: { status: 200, description: 'The offer' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.union([Offer, SellerOffer]),
  examples: { response: EXAMPLE_OFFER },
});
