// GET /v1/rfqs/{id} — one request for quotes: its buyer sees every quote, best first; a seller it reached only its own. Handler: ./get.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Rfq, RfqIdParams } from '../../shared/schemas/rfqs.ts';
import { EXAMPLE_QUOTE, EXAMPLE_RFQ } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getRfq',
  method: 'GET',
  path: '/v1/rfqs/{id}',
  handler: 'functions/rfqs/get.ts',
  summary: 'One request for quotes with its quotes',
  description:
    'Its buyer: every quote, best first (awardable ones, then lowest `unitPrice`, shortest lead time, earliest). A seller it was sent to: only its own quote, and the award only if it won. Anyone else: 404. An `open` RFQ past `closesAt` reads `closed`.',
  tag: 'Requests for quotes',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'rfqs:read',
  rateLimited: true,
  request: { params: RfqIdParams },
  response: { status: 200, description: 'The request for quotes' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Rfq,
  examples: { response: { ...EXAMPLE_RFQ, sellerCount: 12, quotes: [EXAMPLE_QUOTE] } },
});

