// GET /v1/products/{id} — a product with its offers embedded. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { ProductIdParams, ProductWithOffers, SellerProductWithOffers } from '../../shared/schemas/catalog.ts';
import * as z from '../../shared/schemas/zod.ts';
import { EXAMPLE_OFFER, EXAMPLE_PRODUCT } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getProduct',
  method: 'GET',
  path: '/v1/products/{id}',
  handler: 'functions/products/get.ts',
  summary: 'A product with its offers',
  description:
    '`offers[0].offerId` is what `POST /v1/negotiate` takes. Buyers see active products; the seller sees any, with the private policy.',
  tag: 'Catalog',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'catalog:read',
  rateLimited: true,
  request: { params: ProductIdParams },
  response: { status: 200, description: 'The product' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: z.union([ProductWithOffers, SellerProductWithOffers]),
  examples: { response: { ...EXAMPLE_PRODUCT, offers: [EXAMPLE_OFFER] } },
});
