// POST /v1/rfqs — a buyer asks many sellers at once: the sellers whose active catalog matches, or those it invites, receive rfq.created. Handler: ./create.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { CreateRfqRequest, Rfq } from '../../shared/schemas/rfqs.ts';
import { EXAMPLE_RFQ } from '../../shared/schemas/examples.ts';
import { change, idempotency, type RequestBody, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'createRfq',
  method: 'POST',
  path: '/v1/rfqs',
  handler: 'functions/rfqs/create.ts',
  summary: 'Ask many sellers for quotes',
  description:
    'The RFQ is `open` until `closesAt` (1 h to 14 days ahead). In the background it goes to every seller with an active product search would find for it (`keywords`, else the title’s words; `category`, `currency`, `shipsFrom`), or only to `sellerIds`; each gets `rfq.created`, never who else was asked. Quotes arrive as `rfq.quote_received`; compare them with `GET /v1/rfqs/{id}`, then award one.',
  tag: 'Requests for quotes',
  auth: 'apiKey',
  roles: ['buyer'],
  scope: 'rfqs:write',
  rateLimited: true,
  request: { body: CreateRfqRequest },
  response: { status: 201, description: 'The new request for quotes' },
  handlerErrors: [],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Rfq,
  examples: {
    body: {
      title: EXAMPLE_RFQ.title,
      description: EXAMPLE_RFQ.description,
      category: EXAMPLE_RFQ.category,
      keywords: [...EXAMPLE_RFQ.keywords],
      quantity: EXAMPLE_RFQ.quantity,
      unit: EXAMPLE_RFQ.unit,
      currency: EXAMPLE_RFQ.currency,
      maxUnitPrice: EXAMPLE_RFQ.maxUnitPrice,
      shipsFrom: [...EXAMPLE_RFQ.shipsFrom],
      deliverBy: EXAMPLE_RFQ.deliverBy,
      shipTo: EXAMPLE_RFQ.shipTo,
      closesAt: EXAMPLE_RFQ.closesAt,
    },
    response: EXAMPLE_RFQ,
  },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'request_quotes',
  title: 'Ask many sellers for quotes',
  description: `Ask every seller whose active catalog matches (or only sellerIds) for quotes; each gets rfq.created, never who else was asked; maxUnitPrice is in minor units (cents). Next: await rfq.quote_received (list_events), compare with list_rfqs {rfqId}, then award_quote.`,
  annotations: change({ idempotent: false }),
  call: (mk, args) => mk.rfqs.create(args.body as RequestBody<'createRfq'>, idempotency(args)),
});
