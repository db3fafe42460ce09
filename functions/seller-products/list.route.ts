// GET /v1/seller/products — the caller's own products, with their offers' private policy. Handler: ./list.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { ListSellerProductsQuery, SellerProductWithOffers } from '../../shared/schemas/catalog.ts';
import { page } from '../../shared/schemas/common.ts';

export const route = defineRoute({
  operationId: 'listSellerProducts',
  method: 'GET',
  path: '/v1/seller/products',
  handler: 'functions/seller-products/list.ts',
  summary: 'The seller’s products, with private offer policies',
  description:
    'Active and inactive, newest first, with each offer’s private policy; `?sku=` finds one, `?status=` filters.',
  tag: 'Catalog',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'catalog:read',
  rateLimited: true,
  request: { query: ListSellerProductsQuery },
  response: { status: 200, description: 'A page of products' },
  handlerErrors: [],
  tableActions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:BatchGetItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(SellerProductWithOffers),
  examples: { query: { status: 'inactive' }, response: { items: [], nextCursor: null } },
});
