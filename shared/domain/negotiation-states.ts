// The negotiation session's state machine (contract §3 "Negotiation session"), as a pure rule:
// open → accepted | rejected | expired; accepted → ordered. The buyer's opening proposal is round 1 and
// the seller moves next; a counter is a new round (at most maxRounds) and passes the turn; accept takes
// the terms on the table and is only for the party whose turn it is (one accepts the other side's
// proposal, never one's own); either party may reject while open; only the buyer orders, and only an
// accepted session. An open session past its expiresAt reads as expired and takes no move but the
// marketplace's recording of that expiry (the sweep).
//
// The rule decides from the session as read, by the table of moves (NEGOTIATION_MOVES, which the route
// rows of the moves read too: shared/http/route-states.ts); the store's write condition (the session's
// version, and expiresAt or status) guards against what changed in between (negotiations.ts, orders.ts).
import type { FieldProblem } from '../failures.ts';
import { MAX_ROUNDS, type NegotiationStatus, type Party } from '../schemas/trade.ts';

/** The fields of a session the state machine reads and writes. */
export interface SessionState {
  status: NegotiationStatus;
  /** Who must answer; null once the session is no longer open. */
  turn: Party | null;
  /** Proposals so far, the opening one included. */
  round: number;
  maxRounds: number;
  /** Null once accepted, rejected or ordered. */
  expiresAt: string | null;
  acceptedAt: string | null;
  orderId: string | null;
}

/** What a mover asks of a session. */
export type SessionMove = { action: 'counter' } | { action: 'accept' } | { action: 'reject' } | { action: 'order'; orderId: string } | { action: 'expire' };

export interface NegotiationMoveRule {
  /** A party, either party, or the marketplace (which only records an expiry). */
  by: Party | 'either' | 'marketplace';
  /** The statuses the session must have (none for the opening: there is no session yet). */
  from: readonly NegotiationStatus[];
  to: NegotiationStatus;
  /** Only the party whose turn it is may make it. */
  onTurn: boolean;
}

/**
 * Who may make each move, from which status, to which, and whether it waits for the mover's turn: the
 * table negotiationMove() decides by, and from which the route rows of the moves derive their roles and
 * what their descriptions say about states (shared/http/route-states.ts). `start` is the buyer's
 * opening proposal, which makes the session.
 */
export const NEGOTIATION_MOVES: Readonly<Record<SessionMove['action'] | 'start', NegotiationMoveRule>> = {
  start: { by: 'buyer', from: [], to: 'open', onTurn: false },
  counter: { by: 'either', from: ['open'], to: 'open', onTurn: true },
  accept: { by: 'either', from: ['open'], to: 'accepted', onTurn: true },
  reject: { by: 'either', from: ['open'], to: 'rejected', onTurn: false },
  order: { by: 'buyer', from: ['accepted'], to: 'ordered', onTurn: false },
  expire: { by: 'marketplace', from: ['open'], to: 'expired', onTurn: false },
};

/** Whether `by` may ever make a move of this rule (its turn aside). */
function mayMove(rule: NegotiationMoveRule, by: Mover): boolean {
  if (rule.by === 'marketplace') return by === null;
  return by !== null && (rule.by === 'either' || rule.by === by);
}

/** Who moves: a party, or null for the marketplace (which only records expiry). */
export type Mover = Party | null;

/** A refused move: the failure kind (the contract's error code) and its message and details. */
export interface Refusal {
  refused: 'conflict' | 'forbidden';
  message: string;
  details?: FieldProblem[];
}

export const other = (party: Party): Party => (party === 'buyer' ? 'seller' : 'buyer');

function expiresAfter(now: Date, ttlSeconds: number): string {
  return new Date(now.getTime() + ttlSeconds * 1000).toISOString();
}

/** The status a session has at `now`: an open session past its expiresAt is expired, whether or not the sweep has recorded it. */
export function statusAt(session: Pick<SessionState, 'status' | 'expiresAt'>, now: Date): NegotiationStatus {
  return session.status === 'open' && session.expiresAt !== null && Date.parse(session.expiresAt) <= now.getTime() ? 'expired' : session.status;
}

/** A session's state and turn at `now`, as the details of a refusal. */
export function stateDetails(session: Pick<SessionState, 'status' | 'expiresAt' | 'turn'>, now: Date): FieldProblem[] {
  const status = statusAt(session, now);
  const turn = status === 'open' ? session.turn : null;
  return [
    { path: 'status', message: `The session is ${status}` },
    { path: 'turn', message: turn ? `It is the ${turn}'s turn` : 'Nobody is to move: the session is closed' },
  ];
}

/** The state-machine fields of a session (a stored session has more). */
export function stateOf(session: SessionState): SessionState {
  const { status, turn, round, maxRounds, expiresAt, acceptedAt, orderId } = session;
  return { status, turn, round, maxRounds, expiresAt, acceptedAt, orderId };
}

/** A session right after the buyer's opening proposal: round 1, the seller to answer. */
export function openingState(now: Date, ttlSeconds: number): SessionState {
  const { to, by } = NEGOTIATION_MOVES.start;
  return { status: to, turn: other(by as Party), round: 1, maxRounds: MAX_ROUNDS, expiresAt: expiresAfter(now, ttlSeconds), acceptedAt: null, orderId: null };
}

/** The refusal of an order from a session that is not accepted. */
function orderRefusal(session: SessionState, status: NegotiationStatus): Refusal {
  const details: FieldProblem[] = [{ path: 'status', message: `The session is ${status}` }];
  if (status === 'ordered' && session.orderId) {
    details.push({ path: 'orderId', message: `Already ordered as ${session.orderId}` });
    return { refused: 'conflict', message: `The session has already been ordered (${session.orderId}); a session gives one order`, details };
  }
  return { refused: 'conflict', message: `Only an accepted session can be ordered; this one is ${status}`, details };
}

/**
 * The pure rule: what `move` by `by` does to `session` at `now` — the session's next state, or why it
 * is refused (`forbidden`: never this mover's move; `conflict`: the session's state refuses it, with
 * its status and turn in the details). `ttlSeconds`: how long a session stays open after a counter.
 */
export function negotiationMove(read: SessionState, move: SessionMove, by: Mover, now: Date, ttlSeconds: number): { next: SessionState } | Refusal {
  const session = stateOf(read);
  const status = statusAt(session, now);
  const rule = NEGOTIATION_MOVES[move.action];
  if (move.action === 'expire') {
    if (!mayMove(rule, by)) return { refused: 'forbidden', message: 'Only the marketplace records an expiry' };
    // An open session past its expiresAt: stored as open, read as expired.
    if (!rule.from.includes(session.status) || status !== rule.to) return { refused: 'conflict', message: `The session is ${status}: it is not due to expire`, details: stateDetails(session, now) };
    return { next: { ...session, status: rule.to, turn: null } };
  }
  if (by === null) return { refused: 'forbidden', message: `The marketplace does not ${move.action} for a party` };
  if (move.action === 'order') {
    if (!mayMove(rule, by)) return { refused: 'forbidden', message: `Only the session's ${rule.by} can order it` };
    if (!rule.from.includes(status)) return orderRefusal(session, status);
    return { next: { ...session, status: rule.to, orderId: move.orderId } };
  }
  const refuse = (message: string): Refusal => ({ refused: 'conflict', message, details: stateDetails(session, now) });
  if (!rule.from.includes(status)) return refuse(`The session is ${status}: it takes no more moves`);
  if (!rule.onTurn) return { next: { ...session, status: rule.to, turn: null, expiresAt: null } };
  if (session.turn !== by) {
    return refuse(`It is the ${session.turn ?? 'other party'}'s turn: ${move.action === 'accept' ? 'a party accepts the other side’s proposal, never its own' : 'wait for the other party’s answer'}`);
  }
  if (move.action === 'accept') return { next: { ...session, status: rule.to, turn: null, acceptedAt: now.toISOString(), expiresAt: null } };
  if (session.round >= session.maxRounds) return refuse(`The session has reached its limit of ${session.maxRounds} rounds: accept or reject the terms on the table`);
  return { next: { ...session, round: session.round + 1, turn: other(by), expiresAt: expiresAfter(now, ttlSeconds) } };
}
