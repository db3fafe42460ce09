// The order's state machine (contract §3 "Order"; §5.2 approvals), as a table and a pure rule: who may
// make each transition, from which statuses, to which. The domain moves orders by it (orders.ts), and
// the route rows of the transitions derive their roles and what their descriptions say about states
// from it (shared/http/route-states.ts), so that a change here changes the API's documents too.
import type { OrderStatus, Party } from '../schemas/trade.ts';

export type OrderAction = 'approve' | 'decline' | 'expire-approval' | 'confirm' | 'ship' | 'deliver' | 'complete' | 'cancel';
/** Who moves an order: one of its parties, or the marketplace (an approval's expiry). */
export type OrderActor = Party | 'system';

/** The statuses an order starts in: pending, or awaiting approval when its key's limit asks for it. */
export const INITIAL_ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'awaiting_approval'];

export interface OrderTransition {
  /** A party, either party, or the marketplace. */
  by: Party | 'either' | 'system';
  from: readonly OrderStatus[];
  to: OrderStatus;
}

/** The contract's transitions: who may make each, from which statuses, to which. */
export const ORDER_TRANSITIONS: Readonly<Record<OrderAction, OrderTransition>> = {
  approve: { by: 'buyer', from: ['awaiting_approval'], to: 'pending' },
  decline: { by: 'buyer', from: ['awaiting_approval'], to: 'declined' },
  'expire-approval': { by: 'system', from: ['awaiting_approval'], to: 'declined' },
  confirm: { by: 'seller', from: ['pending'], to: 'confirmed' },
  ship: { by: 'seller', from: ['confirmed'], to: 'shipped' },
  deliver: { by: 'seller', from: ['shipped'], to: 'delivered' },
  complete: { by: 'buyer', from: ['delivered'], to: 'completed' },
  cancel: { by: 'either', from: ['pending', 'confirmed'], to: 'cancelled' },
};

/**
 * The pure rule: what `action` by `actor` does to an order in `status` — the next status, or why it is
 * refused (`forbidden`: not this actor's move; `conflict`: not from this status).
 */
export function orderMove(status: OrderStatus, action: OrderAction, actor: OrderActor): { to: OrderStatus } | { refused: 'forbidden' | 'conflict' } {
  const rule = ORDER_TRANSITIONS[action];
  const allowed = rule.by === actor || (rule.by === 'either' && actor !== 'system');
  if (!allowed) return { refused: 'forbidden' };
  if (!rule.from.includes(status)) return { refused: 'conflict' };
  return { to: rule.to };
}

/** A move into these gives back what the order holds: its units to the product, its charge to the key's counters. */
export function releases(to: OrderStatus): boolean {
  return to === 'cancelled' || to === 'declined';
}
