// The order's state machine (contract §3): pending → confirmed → shipped → delivered → completed, and
// cancel from pending or confirmed, each move by its party. Property tests over every sequence of moves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderMove, type OrderAction } from '../../shared/domain/orders.ts';
import { ORDER_STATUSES, type OrderStatus, type Party } from '../../shared/schemas/trade.ts';

const ACTIONS: readonly OrderAction[] = ['confirm', 'ship', 'deliver', 'complete', 'cancel'];
const PARTIES: readonly Party[] = ['buyer', 'seller'];
const TERMINAL: readonly OrderStatus[] = ['completed', 'cancelled'];
const move = fc.record({ action: fc.constantFrom(...ACTIONS), party: fc.constantFrom(...PARTIES) });

/** Statuses reachable from pending, with the moves that reach them. */
function reachable(): Map<OrderStatus, { action: OrderAction; party: Party }[]> {
  const paths = new Map<OrderStatus, { action: OrderAction; party: Party }[]>([['pending', []]]);
  const queue: OrderStatus[] = ['pending'];
  while (queue.length) {
    const status = queue.shift() as OrderStatus;
    for (const action of ACTIONS) {
      for (const party of PARTIES) {
        const result = orderMove(status, action, party);
        if ('to' in result && !paths.has(result.to)) {
          paths.set(result.to, [...(paths.get(status) ?? []), { action, party }]);
          queue.push(result.to);
        }
      }
    }
  }
  return paths;
}

describe('the order state machine', () => {
  it('reaches every status from pending, by the contract’s path', () => {
    const paths = reachable();
    expect([...paths.keys()].sort()).toEqual([...ORDER_STATUSES].sort());
    expect(paths.get('completed')).toEqual([
      { action: 'confirm', party: 'seller' },
      { action: 'ship', party: 'seller' },
      { action: 'deliver', party: 'seller' },
      { action: 'complete', party: 'buyer' },
    ]);
  });

  it('moves nothing out of completed or cancelled (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TERMINAL), move, (status, { action, party }) => {
        expect(orderMove(status, action, party)).toHaveProperty('refused');
      }),
    );
  });

  it('lets only the seller confirm, ship and deliver, only the buyer complete, and either cancel, whatever the status (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ORDER_STATUSES), move, (status, { action, party }) => {
        const result = orderMove(status, action, party);
        const owner = action === 'complete' ? 'buyer' : action === 'cancel' ? party : 'seller';
        if (party !== owner) expect(result).toEqual({ refused: 'forbidden' });
        else if ('to' in result) expect(result.to).not.toBe(status);
      }),
    );
  });

  it('along any sequence of moves: never goes back, cancels only before shipping, ends in a terminal status at most once (property)', () => {
    const order: OrderStatus[] = ['pending', 'confirmed', 'shipped', 'delivered', 'completed'];
    fc.assert(
      fc.property(fc.array(move, { maxLength: 30 }), (moves) => {
        let status: OrderStatus = 'pending';
        for (const { action, party } of moves) {
          const result = orderMove(status, action, party);
          if (!('to' in result)) continue;
          expect(TERMINAL).not.toContain(status);
          if (result.to === 'cancelled') expect(['pending', 'confirmed']).toContain(status);
          else expect(order.indexOf(result.to)).toBe(order.indexOf(status) + 1);
          status = result.to;
        }
      }),
    );
  });
});
