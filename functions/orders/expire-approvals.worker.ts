// Worker `orderApprovalExpiry`, every minute: orders still awaiting approval when their window closes
// (ORDER_APPROVAL_SECONDS, a stage setting: 72 h) are declined with reason `approval_expired`, each
// with its order.declined event, their stock and spend released — once, under the order's write
// condition, whichever run or request gets there first.
import { config } from '../../shared/config.ts';
import { expireApproval, listExpiredApprovalOrders } from '../../shared/domain/orders.ts';
import { logger } from '../../shared/logger.ts';

config(); // fail fast at cold start

/** Orders per page of the due-work index; the sweep reads pages until none is left. */
const PAGE = 100;

export async function handler(): Promise<void> {
  let declined = 0;
  for (;;) {
    const now = new Date();
    const due = await listExpiredApprovalOrders(now, PAGE);
    const results = await Promise.all(due.map((order) => expireApproval(order, now)));
    declined += results.filter(Boolean).length;
    if (due.length < PAGE) break;
  }
  if (declined > 0) logger.info('Order approvals expired', { declined });
}
