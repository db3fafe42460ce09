// What the route rows of the order transitions and the negotiation moves say about states, derived
// from the domain's state machines (shared/domain/order-states.ts, negotiation-states.ts) rather than
// restated: who may make the move (the row's `roles`), the statuses it moves from and to, and the 409
// that another state gets (the row's description, and so the OpenAPI document, llms.txt and the MCP
// tools). A change of a state machine changes the documents with it.
import { NEGOTIATION_MOVES, type NegotiationMoveRule } from '../domain/negotiation-states.ts';
import { ORDER_TRANSITIONS, type OrderAction, type OrderTransition } from '../domain/order-states.ts';
import type { Role } from '../schemas/agents.ts';

/** The transitions a party asks for through a route (the marketplace alone expires approvals). */
export type OrderRouteAction = Exclude<OrderAction, 'expire-approval'>;
/** The moves a party makes through a route (the marketplace alone records expiry). */
export type NegotiationRouteMove = Exclude<keyof typeof NEGOTIATION_MOVES, 'expire'>;

const code = (word: string) => `\`${word}\``;
const an = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** The roles a rule lets move: its party, or both for either party. */
function rolesOf(by: OrderTransition['by'] | NegotiationMoveRule['by'], what: string): readonly Role[] {
  if (by === 'either') return ['buyer', 'seller'];
  if (by === 'buyer' || by === 'seller') return [by];
  throw new Error(`${what} is the marketplace's alone: no route makes it`);
}

/** Who may ask for the transition: the row's `roles`. */
export function orderTransitionRoles(action: OrderRouteAction): readonly Role[] {
  return rolesOf(ORDER_TRANSITIONS[action].by, action);
}

/** The statuses the transition starts from, as words: `pending or confirmed` (for summaries and tool descriptions). */
export function orderTransitionFrom(action: OrderRouteAction): string {
  return ORDER_TRANSITIONS[action].from.map((status) => status.replace(/_/g, ' ')).join(' or ');
}

/** Who makes the transition, as words: `its seller`, `either party` (for summaries). */
export function orderTransitionParty(action: OrderRouteAction): string {
  const { by } = ORDER_TRANSITIONS[action];
  return by === 'either' ? 'either party' : `its ${by}`;
}

/**
 * What the transition does and what another status gets, for the row's description: "By its seller:
 * `pending` → `confirmed` (409 from any other `status`)" (transitionOrder's refusal names the status
 * in its details).
 */
export function orderTransitionText(action: OrderRouteAction): string {
  const { by, from, to } = ORDER_TRANSITIONS[action];
  const who = by === 'either' ? 'Either party' : `By ${orderTransitionParty(action)}`;
  return `${who}: ${from.map(code).join(' or ')} → ${code(to)} (409 from any other \`status\`)`;
}

/** Who may make the move: the row's `roles`. */
export function negotiationMoveRoles(move: NegotiationRouteMove): readonly Role[] {
  return rolesOf(NEGOTIATION_MOVES[move].by, move);
}

/** The status the move leads to, for the row's description: "`accepted`". */
export function negotiationMoveTo(move: NegotiationRouteMove): string {
  return code(NEGOTIATION_MOVES[move].to);
}

/** The session the move needs, for the row's description: "an `accepted` session". */
export function negotiationMoveFrom(move: NegotiationRouteMove): string {
  return NEGOTIATION_MOVES[move].from.map((status) => `${an(status)} ${code(status)}`).join(' or ') + ' session';
}

/**
 * When a party may make a move on a session, for the row's description: "In an `open` session, on your
 * `turn` (409 otherwise, …)"; the refusal's details are the session's status and turn
 * (negotiation-states.ts, stateDetails). Who may (either party, or one) is the row's roles.
 */
export function negotiationMoveText(move: Exclude<NegotiationRouteMove, 'start' | 'order'>): string {
  const { onTurn } = NEGOTIATION_MOVES[move];
  return `In ${negotiationMoveFrom(move)}, ${onTurn ? 'on your `turn`' : 'whoever’s turn it is'} (409 otherwise; \`details\`: \`status\`, \`turn\`)`;
}
