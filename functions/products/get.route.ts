// GET /v1/products/{id} — a product with its offers embedded. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { ProductIdParams, ProductWithOffers, SellerProductWithOffers } from '../../shared/schemas/catalog.ts';
import * as z from '../../shared/schemas/zod.ts';
import { EXAMPLE_OFFER, EXAMPLE_PRODUCT } from '../../shared/schemas/examples.ts';
import { MONEY, pathParameter, READ, type RouteTool } from '../mcp/tool-declaration.ts';

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

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'get_product',
  title: 'Get a product',
  description: `One product (prd_…) with its offers: title, description, category, brand, attributes, unit, list price, availableQuantity, minOrderQuantity, leadTimeDays, shipsFrom. ${MONEY}`,
  annotations: READ,
  call: (mk, args) => mk.products.get(pathParameter(args)),
});
