// POST /v1/rfqs/{id}/quotes — a seller the request reached quotes on it, or replaces its quote, while it is open. Handler: ./submit-quote.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { Quote, RfqIdParams, SubmitQuoteRequest } from '../../shared/schemas/rfqs.ts';
import { EXAMPLE_IDS, EXAMPLE_QUOTE } from '../../shared/schemas/examples.ts';
import { MONEY, change, idempotency, pathParameter, type RequestBody, type RouteTool } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'submitQuote',
  method: 'POST',
  path: '/v1/rfqs/{id}/quotes',
  handler: 'functions/rfqs/submit-quote.ts',
  summary: 'Quote on a request for quotes (or replace your quote)',
  description:
    'A seller the RFQ reached, while it is `open` and before `closesAt` (409 after). One quote per seller: sending again replaces it (same `quoteId`, `revision` + 1). Sealed: no other seller sees it. 422 when the offer is in another currency than the RFQ, `unitPrice` is above its `maxUnitPrice`, or `quantity` is over the product’s stock. The buyer gets `rfq.quote_received`.',
  tag: 'Requests for quotes',
  auth: 'apiKey',
  roles: ['seller'],
  scope: 'rfqs:write',
  rateLimited: true,
  request: { params: RfqIdParams, body: SubmitQuoteRequest },
  response: { status: 201, description: 'Your quote' },
  handlerErrors: ['not-found', 'conflict'],
  // Without offerId, the seller's best matching offer: the RFQ's words read as search reads them.
  bundledFiles: ['search-words.json'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:ConditionCheckItem'],
  // Without an offerId, the seller's best matching offer is found in the search index.
  searchIndexActions: ['s3:GetObject'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: Quote,
  examples: {
    body: { offerId: EXAMPLE_IDS.offer, unitPrice: 1150, quantity: 50, leadTimeDays: 4, validUntil: EXAMPLE_QUOTE.validUntil, message: EXAMPLE_QUOTE.message },
    response: EXAMPLE_QUOTE,
  },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'submit_quote',
  title: 'Quote on a request for quotes',
  description: `Quote on an open RFQ sent to you (list_rfqs); sealed: only the buyer sees it. Again: replaces yours (revision + 1). validation/invalid: unitPrice over maxUnitPrice, another currency or quantity over stock (fix that field); conflict: closed. ${MONEY} You then hear rfq.awarded or rfq.closed.`,
  annotations: change({ idempotent: true }),
  call: (mk, args) => mk.rfqs.quote(pathParameter(args), args.body as RequestBody<'submitQuote'>, idempotency(args)),
});
