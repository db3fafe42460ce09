// POST /v1/negotiate — open a negotiation on an offer with a proposal (the seller answers next; the offer’s policy may answer at once). Handler: ./start.ts
import { defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { negotiationMoveRoles, negotiationMoveTo } from '../../shared/http/route-states.ts';
import { NegotiationSession, StartNegotiationRequest } from '../../shared/schemas/trade.ts';
import { EXAMPLE_IDS, EXAMPLE_OPEN_SESSION } from '../../shared/schemas/examples.ts';
import { change, idempotency, MONEY, type RouteTool, type RequestBody } from '../mcp/tool-declaration.ts';

export const route = defineRoute({
  operationId: 'startNegotiation',
  method: 'POST',
  path: '/v1/negotiate',
  handler: 'functions/negotiate/start.ts',
  summary: 'Open a negotiation on an offer with a proposal',
  description:
    '`quantity` between the offer’s minimum and the stock; `unitPrice` defaults to the offer’s price for it. The session is ' +
    negotiationMoveTo('start') +
    ', `turn: seller`, but the seller’s policy may accept or counter at once (read `status`, `turn`); a non-negotiable offer is accepted at its price. Expires 72 h after the last move. Next: await `negotiation.*` or poll `GET /v1/negotiations/{sessionId}`.',
  tag: 'Negotiation',
  auth: 'apiKey',
  roles: negotiationMoveRoles('start'),
  scope: 'negotiations:write',
  rateLimited: true,
  request: { body: StartNegotiationRequest },
  response: { status: 201, description: 'The new session' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: NegotiationSession,
  examples: { body: { offerId: EXAMPLE_IDS.offer, quantity: 500, unitPrice: 1100, message: 'For our Q1 stock' }, response: EXAMPLE_OPEN_SESSION },
});

/** Its MCP tool (functions/mcp/tool-declaration.ts): read by the MCP server and the documents, never by the function. */
export const mcpTool = (): RouteTool => ({
  name: 'start_negotiation',
  title: 'Start a negotiation',
  description: `Open a negotiation on an offer (ofr_… from search_products): quantity (at least the offer's minQuantity, at most what is available) and your proposed unitPrice (default: the offer's price for that quantity), optionally a message. The seller answers (its automatic policy may accept or counter at once: read status and turn in the result). A non-negotiable offer is accepted at its own price. ${MONEY} Next: counter_offer or accept_terms when it is your turn; place_order once accepted.`,
  annotations: change({ idempotent: false }),
  call: (mk, args) => mk.negotiations.start(args.body as RequestBody<'startNegotiation'>, idempotency(args)),
});
