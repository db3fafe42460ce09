// The route rows of the order transitions and the negotiation moves say what the domain's state
// machines say (shared/http/route-states.ts): their roles are the table's movers, their descriptions
// name the statuses a move starts from and leads to, and the 409 another state gets. A change to a
// state machine changes the rows, and so the OpenAPI document, llms.txt and the MCP tools.
import { describe, expect, it } from 'vitest';
import { routeList, toolList } from '../../functions/registry.ts';
import { NEGOTIATION_MOVES } from '../../shared/domain/negotiation-states.ts';
import { ORDER_TRANSITIONS } from '../../shared/domain/order-states.ts';
import { negotiationMoveFrom, negotiationMoveText, orderTransitionFrom, orderTransitionRoles, orderTransitionText, type NegotiationRouteMove, type OrderRouteAction } from '../../shared/http/route-states.ts';

const route = (operationId: string) => routeList.find((row) => row.operationId === operationId)!;
const rolesFor = (by: string) => (by === 'either' ? ['buyer', 'seller'] : [by]);

const ORDER_ROUTES: Record<OrderRouteAction, string> = {
  approve: 'approveOrder',
  decline: 'declineOrder',
  confirm: 'confirmOrder',
  ship: 'shipOrder',
  deliver: 'deliverOrder',
  complete: 'completeOrder',
  cancel: 'cancelOrder',
};

const NEGOTIATION_ROUTES: Record<NegotiationRouteMove, string> = {
  start: 'startNegotiation',
  counter: 'counterNegotiation',
  accept: 'acceptNegotiation',
  reject: 'rejectNegotiation',
  order: 'createOrder',
};

describe('order transition routes', () => {
  it.each(Object.entries(ORDER_ROUTES) as [OrderRouteAction, string][])('%s: roles, states and the 409 from ORDER_TRANSITIONS', (action, operationId) => {
    const { by, from, to } = ORDER_TRANSITIONS[action];
    const row = route(operationId);
    expect([...row.roles]).toEqual(rolesFor(by));
    expect(row.description).toContain(orderTransitionText(action));
    for (const status of [...from, to]) expect(row.description).toContain(`\`${status}\``);
    expect(row.description).toContain('409');
    expect(row.handlerErrors).toContain('conflict');
  });

  it('words the transition from the table', () => {
    expect(orderTransitionText('cancel')).toBe('Either party: `pending` or `confirmed` → `cancelled` (409 from any other `status`)');
    expect(orderTransitionText('ship')).toBe('By its seller: `confirmed` → `shipped` (409 from any other `status`)');
    expect(orderTransitionFrom('approve')).toBe('awaiting approval');
    expect(orderTransitionRoles('complete')).toEqual(['buyer']);
  });

  it("puts the same statuses in the transitions' MCP tools", () => {
    const tool = (name: string) => toolList.find((candidate) => candidate.name === name)!;
    expect(tool('cancel_order').description).toContain(`that is ${orderTransitionFrom('cancel')}`);
    expect(tool('confirm_order').description).toContain(`a ${orderTransitionFrom('confirm')} order`);
    expect(tool('ship_order').description).toContain(`a ${orderTransitionFrom('ship')} order`);
    expect(tool('mark_delivered').description).toContain(`a ${orderTransitionFrom('deliver')} order`);
  });
});

describe('negotiation move routes', () => {
  it.each(Object.entries(NEGOTIATION_ROUTES) as [NegotiationRouteMove, string][])('%s: roles and states from NEGOTIATION_MOVES', (move, operationId) => {
    const { by, from, to } = NEGOTIATION_MOVES[move];
    const row = route(operationId);
    expect([...row.roles]).toEqual(rolesFor(by));
    for (const status of [...from, to]) expect(row.description).toContain(`\`${status}\``);
  });

  it('says when a party may move, and what another state gets', () => {
    expect(negotiationMoveText('counter')).toBe('In an `open` session, on your `turn` (409 otherwise; `details`: `status`, `turn`)');
    expect(negotiationMoveText('reject')).toBe('In an `open` session, whoever’s turn it is (409 otherwise; `details`: `status`, `turn`)');
    for (const move of ['counter', 'accept', 'reject'] as const) expect(route(NEGOTIATION_ROUTES[move]).description).toContain(negotiationMoveText(move));
    expect(negotiationMoveFrom('order')).toBe('an `accepted` session');
  });
});
