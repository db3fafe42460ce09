// The sandbox's test helpers (contract §5.3; routes that exist only in the test stage and the local
// runtime): a seller's own offer negotiated or ordered by a house buyer, an order of the house seller
// moved on now, a negotiation's timeout applied now. Each is the ordinary domain operations the parties
// would make, in order, with their events: nothing here writes a record any other way.
import { getNegotiation } from '../data/negotiations.ts';
import { getOrder } from '../data/orders.ts';
import { getOffer, getProductWithOffers } from '../data/products.ts';
import { Failure, fail } from '../failures.ts';
import type { NegotiationStrategy } from '../schemas/catalog.ts';
import type { NegotiationSession, Order, OrderStatus } from '../schemas/trade.ts';
import { houseBuyerOpening } from './house-buyer-policy.ts';
import { asCaller, DEFAULT_HOUSE_BUYER_STRATEGY, HOUSE_BUYERS, HOUSE_SELLER, HOUSE_SELLER_CALLER, houseShipment, isHouseSeller } from './house-agents.ts';
import { moveNegotiation, startNegotiation, type TradeCaller } from './negotiations.ts';
import { offerPriceFor } from './negotiation-policy.ts';
import { createOrder, transitionOrder, type TransitionInput } from './orders.ts';

/** One of the caller's own active offers, with the smallest quantity it sells (404 for anyone else's). */
async function ownOffer(caller: TradeCaller, offerId: string) {
  const offer = await getOffer(offerId);
  if (!offer || offer.sellerId !== caller.agentId) throw fail.notFound(`Offer ${offerId} not found among your offers`);
  const product = (await getProductWithOffers(offer.productId))?.product;
  return { offer, minimum: Math.max(offer.minQuantity, product?.minOrderQuantity ?? 1) };
}

/**
 * A house buyer of the chosen strategy opens a negotiation on the caller's own offer: `quantity`
 * (default: the smallest the offer sells), at `unitPrice` (default: 80 % of the offer's price for it).
 * The offer's policy may answer at once; the house buyer answers the seller's counters from then on.
 */
export async function negotiateWithHouseBuyer(
  caller: TradeCaller,
  request: { offerId: string; quantity?: number | undefined; unitPrice?: number | undefined; strategy?: NegotiationStrategy | undefined },
  now: Date,
): Promise<NegotiationSession> {
  const { offer, minimum } = await ownOffer(caller, request.offerId);
  const strategy = request.strategy ?? DEFAULT_HOUSE_BUYER_STRATEGY;
  const quantity = request.quantity ?? minimum;
  const listPrice = offerPriceFor(offer, quantity);
  // A non-negotiable offer takes its own price only.
  const unitPrice = request.unitPrice ?? (offer.negotiable ? houseBuyerOpening(listPrice) : listPrice);
  return startNegotiation(HOUSE_BUYERS[strategy].agentId, { offerId: offer.offerId, quantity, unitPrice, message: `Sandbox house buyer (${strategy}): opening at ${unitPrice}` }, now);
}

/**
 * A house buyer orders `quantity` of the caller's own offer: it proposes the offer's price for that
 * quantity, the caller (the seller) accepts it unless the offer's policy already did, and the house
 * buyer places the order — the order.created a real buyer's order brings.
 */
export async function orderFromHouseBuyer(caller: TradeCaller, request: { offerId: string; quantity: number }, now: Date): Promise<Order> {
  const { offer } = await ownOffer(caller, request.offerId);
  const buyer = asCaller(HOUSE_BUYERS[DEFAULT_HOUSE_BUYER_STRATEGY]);
  let session = await startNegotiation(buyer.agentId, { offerId: offer.offerId, quantity: request.quantity, message: 'Sandbox house buyer: an order at your price' }, now);
  if (session.status === 'open') session = await moveNegotiation(caller, session.sessionId, { action: 'accept', message: 'Accepted for the sandbox’s test order' }, now);
  try {
    return await createOrder(buyer, { sessionId: session.sessionId }, now);
  } catch (error) {
    // The house buyer's worker may have ordered the accepted session first: that order is this one.
    if (!(error instanceof Failure) || error.kind !== 'conflict') throw error;
    const orderId = (await getNegotiation(session.sessionId))?.session.orderId;
    const order = orderId ? (await getOrder(orderId))?.order : undefined;
    if (!order) throw error;
    return order;
  }
}

/** The statuses an order of the house seller passes through, in order, and the move into each. */
const FORWARD: readonly { status: OrderStatus; move: (orderId: string) => TransitionInput }[] = [
  { status: 'pending', move: () => ({ action: 'confirm' }) },
  { status: 'confirmed', move: (orderId) => houseShipment(orderId) },
  { status: 'shipped', move: () => ({ action: 'deliver' }) },
  { status: 'delivered', move: () => ({ action: 'deliver' }) },
];

const stepOf = (status: OrderStatus) => FORWARD.findIndex((step) => step.status === status);

/**
 * Moves an order of the house seller, for its buyer, to `to` now: through every status before it,
 * each move the house seller's own with its event (order.confirmed, order.shipped, order.delivered).
 * A move the house seller's schedule made meanwhile counts as made. An order already at or past `to`,
 * cancelled or completed: 409 with its status.
 */
export async function advanceHouseOrder(caller: TradeCaller, orderId: string, to: 'confirmed' | 'shipped' | 'delivered', now: Date): Promise<Order> {
  let order = (await getOrder(orderId))?.order;
  if (!order || order.buyerId !== caller.agentId) throw fail.notFound(`Order ${orderId} not found`);
  if (!isHouseSeller(order.sellerId)) {
    throw fail.invalid(`Only orders from the house seller (${HOUSE_SELLER.name}) can be advanced; this order's seller moves it`, [
      { path: 'id', message: `Must be an order of ${HOUSE_SELLER.agentId}` },
    ]);
  }
  const target = stepOf(to);
  if (stepOf(order.status) === -1 || stepOf(order.status) >= target) {
    throw fail.conflict(`The order is ${order.status}: it cannot be advanced to ${to}`, [{ path: 'status', message: `The order is ${order.status}` }]);
  }
  while (stepOf(order.status) < target) {
    const step = FORWARD[stepOf(order.status)];
    if (!step) break;
    try {
      order = await transitionOrder(HOUSE_SELLER_CALLER, orderId, step.move(orderId), now);
    } catch (error) {
      // The house seller's own schedule (or the buyer) moved it meanwhile: go on from where it is.
      if (!(error instanceof Failure) || error.kind !== 'conflict') throw error;
      const current = (await getOrder(orderId))?.order;
      if (!current || current.status === order.status || stepOf(current.status) === -1) throw error;
      order = current;
    }
  }
  return order;
}
