// The order's state machine (contract §3, §5.2): pending → confirmed → shipped → delivered → completed,
// cancel from pending or confirmed, each move by its party; an order over its key's approvalAbove starts
// awaiting_approval, which only the buyer (its main key) approves (→ pending) or declines, and only the
// marketplace expires (→ declined). Property tests over every sequence of moves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INITIAL_ORDER_STATUSES, orderMove, releases, type OrderAction, type OrderActor } from '../../shared/domain/orders.ts';
import { ORDER_STATUSES, type OrderStatus } from '../../shared/schemas/trade.ts';

const ACTIONS: readonly OrderAction[] = ['approve', 'decline', 'expire-approval', 'confirm', 'ship', 'deliver', 'complete', 'cancel'];
const ACTORS: readonly OrderActor[] = ['buyer', 'seller', 'system'];
const TERMINAL: readonly OrderStatus[] = ['completed', 'cancelled', 'declined'];
const move = fc.record({ action: fc.constantFrom(...ACTIONS), actor: fc.constantFrom(...ACTORS) });

/** Statuses reachable from where orders start, with the moves that reach them. */
function reachable(): Map<OrderStatus, { action: OrderAction; actor: OrderActor }[]> {
  const paths = new Map<OrderStatus, { action: OrderAction; actor: OrderActor }[]>(INITIAL_ORDER_STATUSES.map((status) => [status, []]));
  const queue: OrderStatus[] = [...INITIAL_ORDER_STATUSES];
  while (queue.length) {
    const status = queue.shift() as OrderStatus;
    for (const action of ACTIONS) {
      for (const actor of ACTORS) {
        const result = orderMove(status, action, actor);
        if ('to' in result && !paths.has(result.to)) {
          paths.set(result.to, [...(paths.get(status) ?? []), { action, actor }]);
          queue.push(result.to);
        }
      }
    }
  }
  return paths;
}

describe('the order state machine', () => {
  it('reaches every status from where orders start, by the contract’s paths', () => {
    const paths = reachable();
    expect([...paths.keys()].sort()).toEqual([...ORDER_STATUSES].sort());
    expect(paths.get('completed')).toEqual([
      { action: 'confirm', actor: 'seller' },
      { action: 'ship', actor: 'seller' },
      { action: 'deliver', actor: 'seller' },
      { action: 'complete', actor: 'buyer' },
    ]);
    expect(paths.get('declined')).toEqual([{ action: 'decline', actor: 'buyer' }]);
  });

  it('moves an order awaiting approval only to pending (the buyer approves) or declined (the buyer declines, or the marketplace expires it)', () => {
    const moves = ACTIONS.flatMap((action) => ACTORS.map((actor) => ({ action, actor, result: orderMove('awaiting_approval', action, actor) })));
    expect(moves.filter(({ result }) => 'to' in result).map(({ action, actor, result }) => `${actor}:${action}→${'to' in result ? result.to : ''}`).sort()).toEqual([
      'buyer:approve→pending',
      'buyer:decline→declined',
      'system:expire-approval→declined',
    ]);
    // Not cancellable: what would be cancelled is declined instead.
    expect(orderMove('awaiting_approval', 'cancel', 'buyer')).toEqual({ refused: 'conflict' });
  });

  it('moves nothing out of completed, cancelled or declined (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TERMINAL), move, (status, { action, actor }) => {
        expect(orderMove(status, action, actor)).toHaveProperty('refused');
      }),
    );
  });

  it('lets only the seller confirm, ship and deliver, only the buyer approve, decline and complete, either party cancel, and the marketplace only expire approvals, whatever the status (property)', () => {
    const owner = (action: OrderAction): OrderActor | 'either' => {
      if (action === 'complete' || action === 'approve' || action === 'decline') return 'buyer';
      if (action === 'expire-approval') return 'system';
      if (action === 'cancel') return 'either';
      return 'seller';
    };
    fc.assert(
      fc.property(fc.constantFrom(...ORDER_STATUSES), move, (status, { action, actor }) => {
        const result = orderMove(status, action, actor);
        const allowed = owner(action);
        const mine = allowed === actor || (allowed === 'either' && actor !== 'system');
        if (!mine) expect(result).toEqual({ refused: 'forbidden' });
        else if ('to' in result) expect(result.to).not.toBe(status);
      }),
    );
  });

  it('along any sequence of moves from either start: never goes back, leaves awaiting_approval once, cancels only before shipping, releases what the order holds exactly once (property)', () => {
    const forward: OrderStatus[] = ['awaiting_approval', 'pending', 'confirmed', 'shipped', 'delivered', 'completed'];
    fc.assert(
      fc.property(fc.constantFrom(...INITIAL_ORDER_STATUSES), fc.array(move, { maxLength: 30 }), (start, moves) => {
        let status: OrderStatus = start;
        let released = 0;
        for (const { action, actor } of moves) {
          const result = orderMove(status, action, actor);
          if (!('to' in result)) continue;
          expect(TERMINAL).not.toContain(status);
          if (releases(result.to)) released += 1;
          if (result.to === 'cancelled') expect(['pending', 'confirmed']).toContain(status);
          else if (result.to === 'declined') expect(status).toBe('awaiting_approval');
          else expect(forward.indexOf(result.to)).toBe(forward.indexOf(status) + 1);
          status = result.to;
        }
        expect(released).toBe(status === 'cancelled' || status === 'declined' ? 1 : 0);
      }),
    );
  });
});
