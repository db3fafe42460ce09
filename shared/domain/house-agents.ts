// The sandbox's house agents (contract §5.3): a seller, "Sandbox Supply Co.", with a standing catalog,
// and four house buyers, one per negotiation strategy, so that a developer with one agent has a
// counterparty. They are ordinary agents in the table — profiles with keys nobody holds — and they act
// only through the same domain operations as any agent, driven by workers (never by a special case in
// a handler): the houseAgents worker reads new events from the table's stream and answers for them,
// the houseFulfilment worker moves the house seller's confirmed orders on when due, and the houseSetup
// worker creates them when a sandbox is deployed or starts. Only the test stage has these workers
// (docs/decisions/house-agents-as-workers.md).
import { createHash } from 'node:crypto';
import { config } from '../config.ts';
import type { DomainEvent } from '../data/events.ts';
import { finishFulfilment, getHouseCatalog, putHouseCatalog, scheduleFulfilment } from '../data/house-work.ts';
import { getAgentItem } from '../data/agents.ts';
import { getNegotiation } from '../data/negotiations.ts';
import { getOrder } from '../data/orders.ts';
import { getQuote, getRfq } from '../data/rfqs.ts';
import { getOffer, getProductsBySku, writeProducts, type OfferItem, type ProductItem } from '../data/products.ts';
import { Failure } from '../failures.ts';
import { logger } from '../logger.ts';
import type { Agent } from '../schemas/agents.ts';
import type { NegotiationStrategy } from '../schemas/catalog.ts';
import type { NegotiationSession, Order } from '../schemas/trade.ts';
import { registerAgent } from './agents.ts';
import { catalogItems } from './feed-processing.ts';
import { validateJsonRow } from './feed-rows.ts';
import { answerAsk } from './house-buyer-policy.ts';
import { moveNegotiation, type TradeCaller } from './negotiations.ts';
import { offerPriceFor } from './negotiation-policy.ts';
import { createOrder, transitionOrder, type OrderingCaller } from './orders.ts';
import { houseQuotePrice, houseQuoteQuantity, houseQuoteValidUntil } from './house-seller-quote.ts';
import { rfqMove } from './rfq-states.ts';
import { quotedOffer, submitQuote } from './rfqs.ts';
import { effectiveStrategy } from './seller-policy.ts';

export interface HouseAgent {
  agentId: string;
  /** Its main key's id (the key itself is made at setup and never shown). */
  keyId: string;
  name: string;
  role: Agent['role'];
  organization: Agent['organization'];
  contactEmail: string;
}

/** Fixed ids (every sandbox has the same house agents): time part zero, so they sort before any agent. */
export const HOUSE_SELLER: HouseAgent = {
  agentId: 'agt_0000000000000000000000S001',
  keyId: 'key_0000000000000000000000S001',
  name: 'Sandbox Supply Co.',
  role: 'seller',
  organization: { legalName: 'Sandbox Supply Co.', country: 'NL' },
  contactEmail: 'house-seller@sandbox.agent-marketplace.example',
};

const houseBuyer = (strategy: NegotiationStrategy, serial: number): HouseAgent => ({
  agentId: `agt_0000000000000000000000B00${serial}`,
  keyId: `key_0000000000000000000000B00${serial}`,
  name: `Sandbox Procurement (${strategy})`,
  role: 'buyer',
  organization: { legalName: 'Sandbox Procurement Co.', country: 'DE' },
  contactEmail: `house-buyer-${strategy}@sandbox.agent-marketplace.example`,
});

/** One house buyer per strategy: its strategy is who it is. */
export const HOUSE_BUYERS: Readonly<Record<NegotiationStrategy, HouseAgent>> = {
  linear: houseBuyer('linear', 1),
  boulware: houseBuyer('boulware', 2),
  conceder: houseBuyer('conceder', 3),
  firm: houseBuyer('firm', 4),
};

export const DEFAULT_HOUSE_BUYER_STRATEGY: NegotiationStrategy = 'linear';

export const HOUSE_AGENTS: readonly HouseAgent[] = [HOUSE_SELLER, ...Object.values(HOUSE_BUYERS)];

export function isHouseSeller(agentId: string): boolean {
  return agentId === HOUSE_SELLER.agentId;
}

/** The strategy of a house buyer; undefined for any other agent. */
export function houseBuyerStrategy(agentId: string): NegotiationStrategy | undefined {
  return (Object.entries(HOUSE_BUYERS) as [NegotiationStrategy, HouseAgent][]).find(([, buyer]) => buyer.agentId === agentId)?.[0];
}

/** A house agent as the caller of a domain operation: its main key, without limits. */
export const asCaller = (agent: HouseAgent): OrderingCaller => ({ agentId: agent.agentId, role: agent.role, keyId: agent.keyId, keyKind: 'main', keyName: null, limits: null });
export const HOUSE_SELLER_CALLER: TradeCaller = asCaller(HOUSE_SELLER);

// Setup

/** The version of a catalog: its rows' digest. */
export function catalogVersion(rows: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 32);
}

export interface HouseSetup {
  /** House agents registered by this run (none when they all existed). */
  created: string[];
  /** Whether the catalog was (re)loaded or already current. */
  catalog: 'loaded' | 'current';
  products: number;
}

/**
 * Creates the house agents that do not exist yet, and loads the house seller's catalog (JSON feed rows)
 * unless this version is the one loaded last: idempotent, so every start and every deploy may run it.
 * Rows are validated as feed rows and upserted by sku like a feed's, keeping the products' and offers'
 * ids; a row that is not valid is a bug of the catalog's generator and fails the setup.
 */
export async function ensureHouseAgents(rows: readonly unknown[], now: Date): Promise<HouseSetup> {
  const created: string[] = [];
  await Promise.all(
    HOUSE_AGENTS.map(async (agent) => {
      if (await getAgentItem(agent.agentId)) return;
      try {
        // A key is made for the profile, as for every agent, and never shown: nobody can call the API as a house agent.
        await registerAgent({ name: agent.name, role: agent.role, organization: agent.organization, contactEmail: agent.contactEmail }, now, { agentId: agent.agentId, keyId: agent.keyId });
        created.push(agent.agentId);
      } catch (error) {
        // Another start or deploy created it meanwhile.
        if (!(await getAgentItem(agent.agentId))) throw error;
      }
    }),
  );

  const version = catalogVersion(rows);
  const sellerId = HOUSE_SELLER.agentId;
  if ((await getHouseCatalog(sellerId))?.version === version) return { created, catalog: 'current', products: rows.length };
  const data = rows.map((row, index) => {
    const outcome = validateJsonRow(row, index + 1);
    if (!outcome.ok) throw new Error(`House catalog row ${index + 1} is not a valid feed row: ${JSON.stringify(outcome.errors)}`);
    return outcome.row;
  });
  const existing = await getProductsBySku(sellerId, data.map((row) => row.sku));
  const timestamp = now.toISOString();
  const writes: { product: ProductItem; offer: OfferItem }[] = data.map((row) =>
    catalogItems(sellerId, row, existing.get(row.sku), timestamp, { feedId: null, attempt: null, row: null }),
  );
  await writeProducts(writes, { parallelism: 8 });
  await putHouseCatalog({ sellerId, version, products: writes.length, loadedAt: timestamp });
  return { created, catalog: 'loaded', products: writes.length };
}

// Acting: what the house agents do when an event concerns them

/**
 * Makes a house agent's move. A refusal by the record's state (it moved meanwhile: another move landed
 * first, the buyer cancelled) leaves nothing to do; a refused input (stock changed under the terms) is
 * logged and left to the other party. A transient collision is thrown, so the worker's event is retried.
 */
async function unlessMoved(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof Failure) || error.transient) throw error;
    if (error.kind === 'invalid' || error.kind === 'forbidden') logger.warn('A house agent’s move was refused', { error });
    else if (error.kind !== 'conflict' && error.kind !== 'not-found') throw error;
  }
}

/** The house seller confirms a new order at once and schedules its shipping. */
async function confirmHouseOrder(orderId: string, now: Date): Promise<void> {
  // Scheduled first: should the confirmation fail after this, the fulfilment sweep finds the order as it is.
  await scheduleFulfilment(orderId, new Date(now.getTime() + config().HOUSE_SHIP_AFTER_SECONDS * 1000));
  await unlessMoved(() => transitionOrder(HOUSE_SELLER_CALLER, orderId, { action: 'confirm' }, now));
}

/** A house buyer's answer to the seller's ask, by its strategy (house-buyer-policy.ts). */
async function answerAsHouseBuyer(session: NegotiationSession, strategy: NegotiationStrategy, now: Date): Promise<void> {
  const offer = await getOffer(session.offerId);
  const buyer = asCaller(HOUSE_BUYERS[strategy]);
  const opening = session.history[0]?.unitPrice ?? session.unitPrice;
  const limit = offer ? offerPriceFor(offer, session.quantity) : opening;
  const answer = answerAsk({ strategy, opening, limit: Math.max(limit, opening), ask: session.unitPrice, round: session.round, maxRounds: session.maxRounds });
  const message = `Sandbox house buyer (${strategy})`;
  await unlessMoved(() =>
    moveNegotiation(buyer, session.sessionId, answer.action === 'counter' ? { action: 'counter', unitPrice: answer.unitPrice, message } : { action: answer.action, message }, now),
  );
}

/**
 * The house seller's answer when its offer's policy had none (no round left for an automatic answer):
 * it accepts terms at or above the offer's floor (its list price without one), and rejects the rest.
 */
async function answerAsHouseSeller(session: NegotiationSession, now: Date): Promise<void> {
  const offer = await getOffer(session.offerId);
  const floor = offer?.floorUnitPrice?.currency === session.currency ? offer.floorUnitPrice.amount : offer ? offerPriceFor(offer, session.quantity) : Infinity;
  await unlessMoved(() => moveNegotiation(HOUSE_SELLER_CALLER, session.sessionId, { action: session.unitPrice >= floor ? 'accept' : 'reject' }, now));
}

/**
 * The house seller quotes on a request for quotes it was sent, once, through the same use case as a
 * seller's agent (submitQuote): its best matching active offer in the request's currency, priced by the
 * offer's policy within the request's cap, for what it has in stock (house-seller-quote.ts). No quote
 * when none of its offers matches, the cap is below what its policy would accept, its stock is under
 * the minimum order, or it quoted already (the event seen twice).
 */
async function quoteAsHouseSeller(rfqId: string, now: Date): Promise<void> {
  const rfq = await getRfq(rfqId);
  if (!rfq || 'refused' in rfqMove(rfq, 'quote', 'seller', now) || (await getQuote(rfqId, HOUSE_SELLER.agentId))) return;
  let chosen;
  try {
    chosen = await quotedOffer(HOUSE_SELLER.agentId, rfq, undefined, now);
  } catch (error) {
    if (error instanceof Failure && error.kind === 'invalid') return;
    throw error;
  }
  const { offer, product } = chosen;
  if (offer.unitPrice.currency !== rfq.currency) return;
  const quantity = houseQuoteQuantity(rfq.quantity, product.availableQuantity, Math.max(offer.minQuantity, product.minOrderQuantity));
  if (quantity === undefined) return;
  const inCurrency = (money: { amount: number; currency: string } | null) => (money?.currency === rfq.currency ? money.amount : undefined);
  const floor = inCurrency(offer.floorUnitPrice);
  const unitPrice = houseQuotePrice({
    listPrice: offerPriceFor(offer, quantity),
    negotiable: offer.negotiable,
    strategy: effectiveStrategy(offer.negotiationStrategy, floor !== undefined),
    floor,
    autoAccept: inCurrency(offer.autoAcceptUnitPrice),
    cap: rfq.maxUnitPrice,
  });
  if (unitPrice === undefined) return;
  const validUntil = houseQuoteValidUntil(rfq.closesAt, offer.validUntil);
  await unlessMoved(() =>
    submitQuote(HOUSE_SELLER_CALLER, rfqId, { offerId: offer.offerId, unitPrice, quantity, leadTimeDays: product.leadTimeDays, validUntil, message: 'Sandbox Supply Co., the sandbox’s house seller: from stock' }, now),
  );
}

/**
 * What the house agents do about one new event: the house seller confirms its new orders, answers
 * negotiations its policy left to it and quotes on the requests for quotes it is sent; a house buyer answers the seller's asks, orders once its session
 * is accepted, and completes its orders once delivered. Sample events (test helpers) are not about
 * real records and are left alone. Every move is an ordinary domain operation under the record's own
 * conditions, so an event seen twice (the stream is at-least-once) moves nothing twice.
 */
export async function actOnEvent(event: DomainEvent, now: Date): Promise<void> {
  const data = event.data as { sample?: boolean; sellerId?: string; buyerId?: string; orderId?: string; sessionId?: string; rfqId?: string; status?: string; turn?: string | null };
  if (data.sample) return;
  const buyerStrategy = data.buyerId ? houseBuyerStrategy(data.buyerId) : undefined;
  const houseSeller = data.sellerId !== undefined && isHouseSeller(data.sellerId);
  if (!buyerStrategy && !houseSeller) return;

  switch (event.type) {
    case 'rfq.created':
      if (houseSeller && data.rfqId) await quoteAsHouseSeller(data.rfqId, now);
      return;
    case 'order.created':
      if (houseSeller && data.orderId) await confirmHouseOrder(data.orderId, now);
      return;
    case 'order.delivered':
      if (buyerStrategy && data.orderId) await unlessMoved(() => transitionOrder(asCaller(HOUSE_BUYERS[buyerStrategy]), data.orderId as string, { action: 'complete' }, now));
      return;
    case 'negotiation.accepted':
      if (buyerStrategy && data.sessionId) await unlessMoved(() => createOrder(asCaller(HOUSE_BUYERS[buyerStrategy]), { sessionId: data.sessionId as string }, now));
      return;
    case 'negotiation.started':
    case 'negotiation.counter': {
      if (data.status !== 'open' || !data.sessionId) return;
      // The event says whose turn it was after that move; the session as it is now decides.
      const read = await getNegotiation(data.sessionId);
      const session = read?.session;
      if (!session || session.status !== 'open' || Date.parse(session.expiresAt ?? '') <= now.getTime()) return;
      if (session.turn === 'buyer' && buyerStrategy) await answerAsHouseBuyer(session, buyerStrategy, now);
      else if (session.turn === 'seller' && houseSeller) await answerAsHouseSeller(session, now);
      return;
    }
    default:
      return;
  }
}

// Fulfilment: the house seller ships and delivers on a schedule

/** Moves one house order on when its time has come: confirmed → shipped (and delivery scheduled), shipped → delivered. */
export async function fulfilHouseOrder(orderId: string, now: Date): Promise<'shipped' | 'delivered' | 'done'> {
  const order: Order | undefined = (await getOrder(orderId))?.order;
  if (order && isHouseSeller(order.sellerId) && order.status === 'confirmed') {
    await scheduleFulfilment(orderId, new Date(now.getTime() + config().HOUSE_DELIVER_AFTER_SECONDS * 1000));
    await unlessMoved(() => transitionOrder(HOUSE_SELLER_CALLER, orderId, houseShipment(orderId), now));
    return 'shipped';
  }
  if (order && isHouseSeller(order.sellerId) && order.status === 'shipped') {
    await unlessMoved(() => transitionOrder(HOUSE_SELLER_CALLER, orderId, { action: 'deliver' }, now));
    await finishFulfilment(orderId);
    return 'delivered';
  }
  // Cancelled, delivered by a test helper, or gone: nothing is due any more.
  await finishFulfilment(orderId);
  return 'done';
}

/** The house seller's carrier and a tracking number derived from the order. */
export function houseShipment(orderId: string): { action: 'ship'; carrier: string; trackingNumber: string; trackingUrl: string } {
  const trackingNumber = `SBX${orderId.slice(-12)}`;
  return { action: 'ship', carrier: 'Sandbox Freight', trackingNumber, trackingUrl: `https://tracking.sandbox.agent-marketplace.example/${trackingNumber}` };
}
