// How a negotiation session is seen: by a reader at a given instant (an open session past its expiry
// reads as expired), and by the events its moves record (the terms and who moved, never the seller's
// policy: docs/decisions/negotiation-events.md).
import type { NewEvent } from '../data/events.ts';
import type { NegotiationMove, NegotiationSession, Party } from '../schemas/trade.ts';
import { statusAt } from './negotiation-states.ts';

/** The session as a reader sees it at `now`: an open session past its expiresAt reads as expired. */
export function toSession(session: NegotiationSession, now: Date): NegotiationSession {
  const status = statusAt(session, now);
  return status === session.status ? session : { ...session, status, turn: null };
}

/** What the event of a move says: ids of the session and its parties, the terms, and who moved (null: the marketplace). */
export function eventData(item: NegotiationSession, by: Party | null, automatic: boolean) {
  return {
    sessionId: item.sessionId,
    offerId: item.offerId,
    productId: item.productId,
    buyerId: item.buyerId,
    sellerId: item.sellerId,
    status: item.status,
    currency: item.currency,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    round: item.round,
    turn: item.turn,
    expiresAt: item.expiresAt,
    by,
    automatic,
  };
}

/** The event a move records. */
export function moveEvent(state: NegotiationSession, move: NegotiationMove): NewEvent {
  const data = eventData(state, move.by, move.automatic);
  const agentIds = [state.buyerId, state.sellerId];
  switch (move.action) {
    case 'propose':
      return { type: 'negotiation.started', data, agentIds };
    case 'counter':
      return { type: 'negotiation.counter', data, agentIds };
    case 'accept':
      return { type: 'negotiation.accepted', data, agentIds };
    case 'reject':
      return { type: 'negotiation.rejected', data: { ...data, reason: 'rejected' }, agentIds };
  }
}
