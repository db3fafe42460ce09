// GET /v1/offers/{id} — one offer. Handler: ./get.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { Offer, OfferIdParams, SellerOffer } from '../../shared/schemas/catalog.ts';
import * as z from 'zod';

export const route = defineRoute({
  operationId: 'getOffer',
  method: 'GET',
  path: '/v1/offers/{id}',
  handler: 'functions/offers/get.ts',
  summary: 'An offer; its seller also sees its private negotiation policy (floor and auto-accept prices, strategy)',
  tag: 'Catalog',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: OfferIdParams },
  response: { status: 200, description: 'The offer', schema: z.union([Offer, SellerOffer]) },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem'],
});
