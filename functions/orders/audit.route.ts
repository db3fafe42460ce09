// GET /v1/orders/{id}/audit — the order’s audit trail: one entry per change, oldest first, append-only. Handler: ./audit.ts
import { ANY_ROLE, defineRoute, type RouteDocument } from '../../shared/http/route-table.ts';
import { PaginationQuery, page } from '../../shared/schemas/common.ts';
import { AuditEntry, OrderIdParams } from '../../shared/schemas/trade.ts';
import { EXAMPLE_IDS } from '../../shared/schemas/examples.ts';

export const route = defineRoute({
  operationId: 'getOrderAudit',
  method: 'GET',
  path: '/v1/orders/{id}/audit',
  handler: 'functions/orders/audit.ts',
  summary: 'The order’s append-only audit trail',
  description:
    'Oldest first, one append-only entry per change: `actor`, time, status before and after, details.',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ANY_ROLE,
  scope: 'orders:read',
  rateLimited: true,
  request: { params: OrderIdParams, query: PaginationQuery },
  response: { status: 200, description: 'A page of audit entries, oldest first' },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query'],
});

/** The response schema and examples: read by the OpenAPI document, llms.txt and the MCP tools, never by the function. */
export const routeDocument = (): RouteDocument => ({
  responseSchema: page(AuditEntry),
  examples: { response: { items: [{ entryId: EXAMPLE_IDS.auditCreate, orderId: EXAMPLE_IDS.order, sequence: 1, at: '2026-11-23T09:11:00.000Z', actor: { agentId: EXAMPLE_IDS.buyer, role: 'buyer' }, action: 'create', fromStatus: null, toStatus: 'pending', details: { sessionId: EXAMPLE_IDS.session, quantity: 500, unitPrice: 1160 } }, { entryId: EXAMPLE_IDS.auditConfirm, orderId: EXAMPLE_IDS.order, sequence: 2, at: '2026-11-23T11:00:00.000Z', actor: { agentId: EXAMPLE_IDS.seller, role: 'seller' }, action: 'confirm', fromStatus: 'pending', toStatus: 'confirmed', details: {} }], nextCursor: null } },
});
