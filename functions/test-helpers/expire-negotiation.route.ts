// POST /v1/test-helpers/negotiations/{sessionId}/expire — an open session of the caller expires now (sandbox only). Handler: ./expire-negotiation.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { EXAMPLE_OPEN_SESSION } from '../../shared/schemas/examples.ts';
import { NegotiationSession, SessionIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'expireTestNegotiation',
  method: 'POST',
  path: '/v1/test-helpers/negotiations/{sessionId}/expire',
  handler: 'functions/test-helpers/expire-negotiation.ts',
  summary: 'Expire an open negotiation now (sandbox)',
  description:
    'Your open session times out now: `expired`, with `negotiation.rejected` (`reason: expired`) to both parties. Already expired: returned as is; other statuses: 409.',
  tag: 'Test helpers',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'negotiations:write',
  stages: ['test'],
  rateLimited: true,
  request: { params: SessionIdParams },
  response: { status: 200, description: 'The expired session' },
  handlerErrors: ['not-found', 'conflict'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: NegotiationSession,
  examples: { response: { ...EXAMPLE_OPEN_SESSION, status: 'expired', turn: null, expiresAt: '2026-11-23T10:20:00.000Z', updatedAt: '2026-11-23T10:20:00.000Z' } },
});
