// GET /v1/orders/{id}/audit — the order’s audit trail: one entry per change, oldest first, append-only. Handler: ./audit.ts
import { ANY_ROLE, defineRoute } from '../../shared/http/route-table.ts';
import { PaginationQuery, page } from '../../shared/schemas/common.ts';
import { AuditEntry, OrderIdParams } from '../../shared/schemas/trade.ts';

export const route = defineRoute({
  operationId: 'getOrderAudit',
  method: 'GET',
  path: '/v1/orders/{id}/audit',
  handler: 'functions/orders/audit.ts',
  summary: 'The order’s audit trail: one entry per change, oldest first, append-only',
  tag: 'Orders',
  auth: 'apiKey',
  roles: ANY_ROLE,
  rateLimited: true,
  request: { params: OrderIdParams, query: PaginationQuery },
  response: { status: 200, description: 'A page of audit entries, oldest first', schema: page(AuditEntry) },
  handlerErrors: ['not-found'],
  tableActions: ['dynamodb:GetItem', 'dynamodb:Query'],
});
