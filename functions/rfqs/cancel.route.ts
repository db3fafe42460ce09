// POST /v1/rfqs/{id}/cancel — the buyer withdraws its request for quotes; the sellers it reached hear rfq.closed. Handler: ./cancel.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CancelRfqRequest, Rfq, RfqIdParams } from '../../shared/schemas/rfqs.ts';
import { EXAMPLE_RFQ } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'cancelRfq',
  method: 'POST',
  path: '/v1/rfqs/{id}/cancel',
  handler: 'functions/rfqs/cancel.ts',
  summary: 'Cancel a request for quotes',
  description:
    'Its buyer, while `open` or `closed` (409 once awarded or cancelled): → `cancelled`; every quote is declined and each seller it reached gets `rfq.closed` (`status: cancelled`).',
  tag: 'Requests for quotes',
  auth: 'apiKey',
  roles: ['buyer'],
  scope: 'rfqs:write',
  rateLimited: true,
  request: { params: RfqIdParams, body: CancelRfqRequest },
  response: { status: 200, description: 'The request for quotes after the change' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Rfq,
  examples: {
    body: { reason: 'Bought elsewhere' },
    response: { ...EXAMPLE_RFQ, status: 'cancelled', cancellationReason: 'Bought elsewhere', closedAt: '2026-11-23T12:00:00.000Z', updatedAt: '2026-11-23T12:00:00.000Z' },
  },
});
