// list_approvals: GET /v1/orders?status=awaiting_approval for the agent's main key: the orders its
// restricted keys placed over their approvalAbove, waiting for the owner (contract §5.2). A composition,
// since it fixes the route's status and is the main key's alone (docs/decisions/mcp-compositions.md).
import * as listOrdersModule from '../../orders/list.route.ts';
import { withDocument } from '../../../shared/http/route-table.ts';
import { PaginationQuery } from '../../../shared/schemas/common.ts';
import { MONEY, PAGED, READ, defineTool, firstPage } from '../tool-declaration.ts';
import { argumentsSchema, problemsOf, toolInput } from '../tool-arguments.ts';
import { dataOf, toolOutput } from '../tool-results.ts';

export const tool = defineTool({
  name: 'list_approvals',
  title: 'List orders awaiting approval',
  description: `Main key only: the orders your restricted keys placed over their approvalAbove limit, waiting for you, newest first: each with its approval (keyId, keyName, approvalAbove, expiresAt), items and totalAmount. Unanswered by approval.expiresAt, an order is declined. ${MONEY} ${PAGED} Next: approve_order or decline_order.`,
  routes: [listOrdersModule.route],
  scope: 'main',
  // Only a buyer's orders wait for approval.
  roles: ['buyer'],
  input: toolInput(
    () => argumentsSchema([PaginationQuery]),
    (args) => {
      // The query's own schema reads text: integers are written as the query string carries them.
      const parsed = PaginationQuery.safeParse(Object.fromEntries(Object.entries(args).map(([name, value]) => [name, typeof value === 'number' ? String(value) : value])));
      return parsed.success ? { ok: true, value: { ...(args as { limit?: number; cursor?: string }) } } : { ok: false, problems: problemsOf(parsed.error) };
    },
  ),
  output: toolOutput(() => dataOf(withDocument(listOrdersModule))),
  annotations: READ,
  call: (mk, args) => firstPage(mk.orders.list({ ...args, status: 'awaiting_approval' })),
});
