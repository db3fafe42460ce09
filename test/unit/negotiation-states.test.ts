// The negotiation session's state machine (contract §3): open → accepted | rejected | expired,
// accepted → ordered; turns, rounds up to maxRounds, expiry as read. Examples of each refusal with the
// message agents see, and property tests over every sequence of moves, movers and waits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { negotiationMove, openingState, statusAt, type Mover, type SessionMove, type SessionState } from '../../shared/domain/negotiation-states.ts';
import { MAX_ROUNDS, NEGOTIATION_STATUSES, type NegotiationStatus, type Party } from '../../shared/schemas/trade.ts';

const TTL = 72 * 60 * 60;
const T0 = new Date('2030-01-01T00:00:00.000Z');
const ORDER_ID = 'ord_01J00000000000000000000000';
const MOVES: readonly SessionMove[] = [{ action: 'counter' }, { action: 'accept' }, { action: 'reject' }, { action: 'order', orderId: ORDER_ID }, { action: 'expire' }];
const MOVERS: readonly Mover[] = ['buyer', 'seller', null];
const PARTY_MOVES = MOVES.filter((move) => move.action !== 'expire');
/** Statuses that take no move at all (accepted still takes the buyer's order). */
const CLOSED: readonly NegotiationStatus[] = ['rejected', 'expired', 'ordered'];

const other = (party: Party): Party => (party === 'buyer' ? 'seller' : 'buyer');
const later = (date: Date, ms: number) => new Date(date.getTime() + ms);
const apply = (state: SessionState, move: SessionMove, by: Mover, now: Date) => negotiationMove(state, move, by, now, TTL);

/** A session after `rounds` proposals (the opening one included), made at T0, with `turn` to answer. */
function openAt(round: number, now = T0): SessionState {
  return { ...openingState(now, TTL), round, turn: round % 2 === 1 ? 'seller' : 'buyer' };
}

/**
 * One step of a sequence: a move by a mover (`turn`: the party whose turn it is, or the buyer once
 * nobody is to move) after waiting `wait` ms, now and then past the session's expiry. `counters`
 * weighs counters by the party to move against any other step: high, and sequences run to the round
 * limit and against it.
 */
const stepWith = (counters: number) =>
  fc.record({
    move: fc.oneof({ arbitrary: fc.constant<SessionMove>({ action: 'counter' }), weight: counters }, { arbitrary: fc.constantFrom(...MOVES), weight: 1 }),
    by: fc.oneof({ arbitrary: fc.constant('turn' as const), weight: counters }, { arbitrary: fc.constantFrom(...MOVERS), weight: 1 }),
    wait: fc.oneof(
      { arbitrary: fc.constant(0), weight: 4 * counters },
      { arbitrary: fc.integer({ min: 1, max: TTL * 1000 - 1 }), weight: 2 * counters },
      { arbitrary: fc.integer({ min: TTL * 1000, max: 2 * TTL * 1000 }), weight: 1 },
    ),
  });
const step = stepWith(1);
const mostlyCounters = stepWith(12);

interface Walked {
  before: SessionState;
  now: Date;
  move: SessionMove;
  by: Mover;
  result: ReturnType<typeof negotiationMove>;
  /** Who made the terms on the table before this step. */
  proposer: Party;
}

/** Runs a sequence of steps from the opening, keeping each step's state before, verdict and the proposer of the terms on the table. */
function walk(steps: readonly { move: SessionMove; by: Mover | 'turn'; wait: number }[]): Walked[] {
  let now = T0;
  let state = openingState(now, TTL);
  let proposer: Party = 'buyer';
  const walked: Walked[] = [];
  for (const { move, by: mover, wait } of steps) {
    now = later(now, wait);
    const by = mover === 'turn' ? (state.turn ?? 'buyer') : mover;
    const result = apply(state, move, by, now);
    walked.push({ before: state, now, move, by, result, proposer });
    if ('next' in result) {
      if (move.action === 'counter' && by) proposer = by;
      state = result.next;
    }
  }
  return walked;
}

describe('the negotiation state machine: each rule', () => {
  it('opens at round 1 of 20 with the seller to answer, expiring a TTL later', () => {
    expect(openingState(T0, TTL)).toEqual({ status: 'open', turn: 'seller', round: 1, maxRounds: MAX_ROUNDS, expiresAt: '2030-01-04T00:00:00.000Z', acceptedAt: null, orderId: null });
  });

  it('counters into a new round, passing the turn and moving the expiry; accepts with acceptedAt; rejects for either party', () => {
    const now = later(T0, 60_000);
    expect(apply(openAt(1), { action: 'counter' }, 'seller', now)).toEqual({ next: { ...openAt(1), round: 2, turn: 'buyer', expiresAt: later(now, TTL * 1000).toISOString() } });
    expect(apply(openAt(2), { action: 'accept' }, 'buyer', now)).toEqual({ next: { ...openAt(2), status: 'accepted', turn: null, expiresAt: null, acceptedAt: now.toISOString() } });
    for (const by of ['buyer', 'seller'] as const) expect(apply(openAt(2), { action: 'reject' }, by, now)).toEqual({ next: { ...openAt(2), status: 'rejected', turn: null, expiresAt: null } });
  });

  it('refuses a counter or an accept out of turn with 409 conflict, the status and the turn', () => {
    expect(apply(openAt(1), { action: 'counter' }, 'buyer', T0)).toEqual({
      refused: 'conflict',
      message: "It is the seller's turn: wait for the other party’s answer",
      details: [{ path: 'status', message: 'The session is open' }, { path: 'turn', message: "It is the seller's turn" }],
    });
    expect(apply(openAt(2), { action: 'accept' }, 'seller', T0)).toMatchObject({ refused: 'conflict', message: "It is the buyer's turn: a party accepts the other side’s proposal, never its own" });
  });

  it('refuses the counter that would make round 21, and still accepts or rejects at round 20', () => {
    expect(apply(openAt(20), { action: 'counter' }, 'buyer', T0)).toMatchObject({ refused: 'conflict', message: 'The session has reached its limit of 20 rounds: accept or reject the terms on the table' });
    expect(apply(openAt(20), { action: 'accept' }, 'buyer', T0)).toHaveProperty('next.status', 'accepted');
    expect(apply(openAt(20), { action: 'reject' }, 'seller', T0)).toHaveProperty('next.status', 'rejected');
  });

  it('reads an open session as expired from its expiresAt on: it refuses every move and order, and only the marketplace records the expiry', () => {
    const due = new Date(openAt(3).expiresAt as string);
    const closed = [{ path: 'status', message: 'The session is expired' }, { path: 'turn', message: 'Nobody is to move: the session is closed' }];
    expect(statusAt(openAt(3), later(due, -1))).toBe('open');
    expect(statusAt(openAt(3), due)).toBe('expired');
    expect(apply(openAt(3), { action: 'reject' }, 'buyer', later(due, -1))).toHaveProperty('next.status', 'rejected');
    expect(apply(openAt(3), { action: 'reject' }, 'buyer', due)).toEqual({ refused: 'conflict', message: 'The session is expired: it takes no more moves', details: closed });
    expect(apply(openAt(3), { action: 'order', orderId: ORDER_ID }, 'buyer', due)).toEqual({
      refused: 'conflict',
      message: 'Only an accepted session can be ordered; this one is expired',
      details: [{ path: 'status', message: 'The session is expired' }],
    });
    expect(apply(openAt(3), { action: 'expire' }, null, due)).toEqual({ next: { ...openAt(3), status: 'expired', turn: null } });
    expect(apply(openAt(3), { action: 'expire' }, null, later(due, -1))).toMatchObject({ refused: 'conflict' });
    expect(apply(openAt(3), { action: 'expire' }, 'seller', due)).toMatchObject({ refused: 'forbidden' });
  });

  it('orders only an accepted session, once, and only for its buyer', () => {
    const accepted: SessionState = { ...openAt(2), status: 'accepted', turn: null, expiresAt: null, acceptedAt: T0.toISOString() };
    expect(apply(accepted, { action: 'order', orderId: ORDER_ID }, 'buyer', T0)).toEqual({ next: { ...accepted, status: 'ordered', orderId: ORDER_ID } });
    expect(apply(accepted, { action: 'order', orderId: ORDER_ID }, 'seller', T0)).toMatchObject({ refused: 'forbidden' });
    expect(apply({ ...accepted, status: 'ordered', orderId: ORDER_ID }, { action: 'order', orderId: 'ord_other' }, 'buyer', T0)).toEqual({
      refused: 'conflict',
      message: `The session has already been ordered (${ORDER_ID}); a session gives one order`,
      details: [{ path: 'status', message: 'The session is ordered' }, { path: 'orderId', message: `Already ordered as ${ORDER_ID}` }],
    });
    expect(apply(openAt(2), { action: 'order', orderId: ORDER_ID }, 'buyer', T0)).toMatchObject({ refused: 'conflict', message: 'Only an accepted session can be ordered; this one is open' });
    // An accepted session does not expire: it has no expiresAt.
    expect(apply(accepted, { action: 'order', orderId: ORDER_ID }, 'buyer', later(T0, 10 * TTL * 1000))).toHaveProperty('next.status', 'ordered');
  });
});

describe('the negotiation state machine: properties', () => {
  it('moves nothing out of rejected, expired or ordered, and nothing but the buyer’s order out of accepted (property)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        for (const { before, now, move, by, result } of walk(steps)) {
          const status = statusAt(before, now);
          if (!('next' in result)) continue;
          // The one change a closed session takes is the marketplace recording an expiry that was already read.
          if (CLOSED.includes(status)) expect({ status, action: move.action, by, after: statusAt(result.next, now) }).toEqual({ status: 'expired', action: 'expire', by: null, after: 'expired' });
          if (status === 'accepted') expect({ action: move.action, by }).toEqual({ action: 'order', by: 'buyer' });
        }
      }),
    );
  });

  it('lets only the party whose turn it is counter or accept, and passes the turn with every counter (property)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        for (const { before, now, move, by, result } of walk(steps)) {
          if (move.action !== 'counter' && move.action !== 'accept') continue;
          const mayMove = statusAt(before, now) === 'open' && by === before.turn;
          if (!mayMove) expect(result).toHaveProperty('refused');
          if (!('next' in result)) continue;
          expect(by).toBe(before.turn);
          expect(result.next.turn).toBe(move.action === 'counter' ? other(by as Party) : null);
        }
      }),
    );
  });

  it('never accepts one’s own proposal: an accept always takes the other side’s terms (property)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        for (const { move, by, result, proposer } of walk(steps)) if (move.action === 'accept' && 'next' in result) expect(by).toBe(other(proposer));
      }),
    );
  });

  it('counts rounds one per counter and never past maxRounds; the turn follows the round (property)', () => {
    fc.assert(
      fc.property(fc.array(mostlyCounters, { minLength: 20, maxLength: 60 }), (steps) => {
        for (const { before, move, by, result } of walk(steps)) {
          if ('next' in result) {
            const { next } = result;
            expect(next.round).toBe(before.round + (move.action === 'counter' ? 1 : 0));
            expect(next.round).toBeGreaterThanOrEqual(1);
            expect(next.round).toBeLessThanOrEqual(next.maxRounds);
            if (next.status === 'open') expect(next.turn).toBe(next.round % 2 === 1 ? 'seller' : 'buyer');
          } else if (move.action === 'counter' && by !== null && before.round >= before.maxRounds) {
            expect(result.refused).toBe('conflict');
          }
        }
      }),
    );
  });

  it('closes with turn null; accepted, rejected and ordered without expiry; accepted at the moment of the accept (property)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        for (const { before, now, move, result } of walk(steps)) {
          if (!('next' in result)) continue;
          const { next } = result;
          if (next.status !== 'open') expect(next.turn).toBeNull();
          if (next.status === 'open') expect(next.expiresAt).toBe(later(now, TTL * 1000).toISOString());
          if (['accepted', 'rejected', 'ordered'].includes(next.status)) expect(next.expiresAt).toBeNull();
          if (move.action === 'accept') expect(next.acceptedAt).toBe(now.toISOString());
          else expect(next.acceptedAt).toBe(before.acceptedAt);
          expect(next.orderId).toBe(next.status === 'ordered' ? ORDER_ID : null);
        }
      }),
    );
  });

  it('refuses every party move on a session past its expiresAt, whatever its round and turn (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_ROUNDS }), fc.integer({ min: 0, max: 10 * TTL * 1000 }), fc.constantFrom(...PARTY_MOVES), fc.constantFrom<Party>('buyer', 'seller'), (round, past, move, by) => {
        const session = openAt(round);
        const now = later(new Date(session.expiresAt as string), past);
        const result = apply(session, move, by, now);
        if (move.action === 'order' && by === 'seller') expect(result).toMatchObject({ refused: 'forbidden' });
        else expect(result).toMatchObject({ refused: 'conflict', details: [{ path: 'status', message: 'The session is expired' }, ...(move.action === 'order' ? [] : [{ path: 'turn', message: 'Nobody is to move: the session is closed' }])] });
      }),
    );
  });

  it('reaches every status, and every round of each, from the opening; and nothing else', () => {
    type Node = { state: SessionState; now: Date };
    const key = ({ state, now }: Node) => `${statusAt(state, now)}/${statusAt(state, now) === 'open' ? state.turn : '-'}/${state.round}`;
    const seen = new Map<string, Node>();
    const start: Node = { state: openingState(T0, TTL), now: T0 };
    const queue: Node[] = [start];
    seen.set(key(start), start);
    while (queue.length) {
      const node = queue.shift() as Node;
      const nextNodes: Node[] = [];
      // Waiting until the session expires is a step too.
      if (node.state.expiresAt) nextNodes.push({ state: node.state, now: new Date(node.state.expiresAt) });
      for (const move of MOVES) {
        for (const by of MOVERS) {
          const result = apply(node.state, move, by, node.now);
          if ('next' in result) nextNodes.push({ state: result.next, now: node.now });
        }
      }
      for (const next of nextNodes) {
        if (seen.has(key(next))) continue;
        seen.set(key(next), next);
        queue.push(next);
      }
    }
    const rounds = Array.from({ length: MAX_ROUNDS }, (_, i) => i + 1);
    const expected = NEGOTIATION_STATUSES.flatMap((status) => rounds.map((round) => `${status}/${status === 'open' ? (round % 2 === 1 ? 'seller' : 'buyer') : '-'}/${round}`));
    expect([...seen.keys()].sort()).toEqual(expected.sort());
  });
});
