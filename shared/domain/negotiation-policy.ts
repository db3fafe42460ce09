// The seller's private policy, applied to a session (contract §3; docs/decisions/seller-policy.md):
// the offer's price for a quantity (its tiers), the policy in the session's currency with its private
// target, and the policy's answer to a buyer's proposal (accept, counter with its ask, or leave it to
// the seller's agent). The curves themselves are seller-policy.ts's; the moves they make are applied by
// the use cases (negotiations.ts) through the state machine like any other.
import { createHmac, hkdfSync } from 'node:crypto';
import { config } from '../config.ts';
import type { OfferItem } from '../data/products.ts';
import type { Money } from '../schemas/money.ts';
import type { NegotiationMove, NegotiationSession } from '../schemas/trade.ts';
import { answerProposal, effectiveStrategy, previousAsk, privateTarget, type Concession } from './seller-policy.ts';

/** The offer's unit price for a quantity: the highest price tier the quantity reaches, else its unit price. */
export function offerPriceFor(offer: OfferItem, quantity: number): number {
  let price = offer.unitPrice.amount;
  let reached = 0;
  for (const tier of offer.priceTiers) {
    if (quantity >= tier.minQuantity && tier.minQuantity >= reached && tier.unitPrice.currency === offer.unitPrice.currency) {
      price = tier.unitPrice.amount;
      reached = tier.minQuantity;
    }
  }
  return price;
}

let targetKey: { secret: string; key: Buffer } | undefined;

/**
 * Where in its margin above the floor an offer's private target lies: a number in (0, 1] drawn from a
 * keyed hash of the offer and its floor. Stable, so that neither repeated sessions nor other buyer
 * accounts see another draw to average over; a new floor gets a new draw. The key is derived from the
 * stack's secret for this use alone.
 */
function targetDraw(offerId: string, floor: Money): number {
  const secret = config().CURSOR_SIGNING_KEY;
  if (targetKey?.secret !== secret) targetKey = { secret, key: Buffer.from(hkdfSync('sha256', secret, 'agent-marketplace', 'negotiation-target', 32)) };
  const digest = createHmac('sha256', targetKey.key).update(`${offerId}|${floor.currency}|${floor.amount}`).digest();
  return (digest.readUInt32BE(0) + 1) / 2 ** 32;
}

/** The offer's private policy in the session's currency: its concession (null: none) and auto-accept price. */
function policyOf(offer: OfferItem, currency: string): { concession: Concession | null; autoAccept: number | undefined } {
  const floor = offer.floorUnitPrice?.currency === currency ? offer.floorUnitPrice : null;
  const autoAccept = offer.autoAcceptUnitPrice?.currency === currency ? offer.autoAcceptUnitPrice.amount : undefined;
  const strategy = effectiveStrategy(offer.negotiationStrategy, floor !== null);
  if (strategy === null) return { concession: null, autoAccept };
  if (strategy === 'firm' || floor === null) return { concession: { strategy: 'firm' }, autoAccept };
  return { concession: { strategy, floor: floor.amount, target: privateTarget(floor.amount, targetDraw(offer.offerId, floor), autoAccept) }, autoAccept };
}

/**
 * After a buyer proposal, the seller's policy may answer it at once: a non-negotiable offer accepts
 * its own price; otherwise see answerProposal. Undefined: the seller's agent decides.
 */
export function policyAnswer(item: NegotiationSession, offer: OfferItem, listPrice: number, now: Date): NegotiationMove | undefined {
  const proposal = item.unitPrice;
  const at = now.toISOString();
  const accept: NegotiationMove = { round: item.round, by: 'seller', action: 'accept', unitPrice: proposal, quantity: item.quantity, message: null, automatic: true, at };
  if (!offer.negotiable) return proposal === listPrice ? accept : undefined;
  const { concession, autoAccept } = policyOf(offer, item.currency);
  const answer = answerProposal({ proposal, round: item.round, maxRounds: item.maxRounds, listPrice, concession, autoAccept, previousAsk: previousAsk(item.history, item.quantity) });
  if (!answer) return undefined;
  if (answer.action === 'accept') return accept;
  return { round: item.round + 1, by: 'seller', action: 'counter', unitPrice: answer.unitPrice, quantity: item.quantity, message: null, automatic: true, at };
}
