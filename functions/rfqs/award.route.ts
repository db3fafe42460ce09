// POST /v1/rfqs/{id}/award — the buyer awards one quote: it becomes an accepted negotiation session to order from. Handler: ./award.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { AwardRfqRequest, Rfq, RfqIdParams } from '../../shared/schemas/rfqs.ts';
import { EXAMPLE_AWARDED_RFQ, EXAMPLE_QUOTE } from '../../shared/schemas/examples.ts';
import { change, idempotency, pathParameter, type RequestBody, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'awardRfq',
  method: 'POST',
  path: '/v1/rfqs/{id}/award',
  handler: 'functions/rfqs/award.ts',
  summary: 'Award a quote',
  description:
    'Its buyer, while the RFQ is `open` or `closed` and before the quote’s `validUntil` (409 otherwise, and for a second award). The RFQ becomes `awarded`; `sessionId` is an **accepted negotiation session** at the quote’s terms: place the order with `POST /v1/create-order {sessionId}` (your key’s limits and approvals apply). The winner gets `rfq.awarded`, every other seller `rfq.closed`.',
  tag: 'Requests for quotes',
  auth: 'apiKey',
  roles: ['buyer'],
  scope: 'rfqs:write',
  rateLimited: true,
  request: { params: RfqIdParams, body: AwardRfqRequest },
  response: { status: 200, description: 'The awarded request for quotes' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:ConditionCheckItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Rfq,
  examples: { body: { quoteId: EXAMPLE_QUOTE.quoteId }, response: EXAMPLE_AWARDED_RFQ },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'award_quote',
  title: 'Award a quote',
  description:
    "Award a quote (from list_rfqs {rfqId}) of your open or closed RFQ, before its validUntil: the RFQ's sessionId is then an accepted negotiation at its terms. Next: place_order {sessionId} (your limits and approvals apply). conflict: already awarded or cancelled, or the quote expired (pick another).",
  annotations: change({ idempotent: false }),
  call: (mk, args) => mk.rfqs.award(pathParameter(args), args.body as RequestBody<'awardRfq'>, idempotency(args)),
});
