// The sandbox house seller's sealed quote on a request for quotes, as pure rules
// (docs/decisions/house-seller-quotes.md). A quote is one shot — no rounds to concede over — so the
// house seller opens where its offer's policy accepts at once (the auto-accept price, else the list
// price for the quantity), and goes down to meet the buyer's cap only as far as that policy would ever
// go: the floor for a conceding strategy, the opening price for a firm or non-negotiable offer. Below
// that it does not quote. It quotes what it has: the request's quantity, or its stock when smaller,
// never under the offer's minimum order. The quote stays valid a week after the request closes (the
// buyer may award until then), never beyond the offer's own end.
import type { NegotiationStrategy } from '../schemas/catalog.ts';

/** How long after the RFQ closes the house seller's quote may still be awarded. */
export const HOUSE_QUOTE_VALID_AFTER_CLOSE_MS = 7 * 24 * 60 * 60 * 1000;

export interface HouseQuoteInput {
  /** The offer's unit price for the quoted quantity (its tiers applied). */
  listPrice: number;
  negotiable: boolean;
  /** The strategy that answers for the offer (effectiveStrategy), null: none. */
  strategy: NegotiationStrategy | null;
  /** The offer's floor and auto-accept price in the RFQ's currency, when set. */
  floor?: number | undefined;
  autoAccept?: number | undefined;
  /** The RFQ's maxUnitPrice, null: no cap. */
  cap: number | null;
}

/** The unit price the house seller quotes, or undefined when it cannot quote within the cap. */
export function houseQuotePrice(input: HouseQuoteInput): number | undefined {
  const { listPrice } = input;
  const autoAccept = input.negotiable && input.autoAccept !== undefined && input.autoAccept > 0 && input.autoAccept < listPrice ? input.autoAccept : undefined;
  const opening = autoAccept ?? listPrice;
  const concedes = input.negotiable && input.strategy !== null && input.strategy !== 'firm' && input.floor !== undefined && input.floor > 0;
  const lowest = concedes ? Math.min(opening, input.floor as number) : opening;
  const price = input.cap === null ? opening : Math.min(opening, input.cap);
  return price >= lowest && price > 0 ? price : undefined;
}

/** The quantity the house seller quotes: the request's, or its stock when smaller; undefined under its minimum order. */
export function houseQuoteQuantity(requested: number, available: number, minimum: number): number | undefined {
  const quantity = Math.min(requested, available);
  return quantity >= minimum && quantity > 0 ? quantity : undefined;
}

/** Until when the quote may be awarded: a week after the RFQ closes, never beyond the offer's end. */
export function houseQuoteValidUntil(closesAt: string, offerValidUntil: string | null): string {
  const week = Date.parse(closesAt) + HOUSE_QUOTE_VALID_AFTER_CLOSE_MS;
  const end = offerValidUntil === null ? week : Math.min(week, Date.parse(offerValidUntil));
  return new Date(end).toISOString();
}
