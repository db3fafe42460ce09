// Reading the catalog. What a caller sees depends on who it is: a product's own seller sees it active
// or inactive, with its offers' private negotiation policy (floor and auto-accept prices, strategy);
// anyone else sees active products only, and offers without those fields, in every response.
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { getOffer, getOffers, getProductBySku, getProductWithOffers, listSellerProducts, type OfferItem, type ProductItem } from '../data/products.ts';
import { fail } from '../failures.ts';
import { Offer, type Product, type SellerOffer } from '../schemas/catalog.ts';
import { effectiveStrategy } from './seller-policy.ts';

export function toProduct(item: ProductItem): Product {
  const { standingOfferId: _offer, sourceAttempt: _attempt, sourceRow: _row, ...product } = item;
  return product;
}

/** The public offer's fields: anything else an offer item holds (its private policy) is the seller's alone. */
const PUBLIC_OFFER_FIELDS = Object.keys(Offer.shape) as (keyof Offer)[];

/** An offer as anyone but its seller sees it: the private policy fields are not there at all. */
export function toPublicOffer(item: OfferItem): Offer {
  return Object.fromEntries(PUBLIC_OFFER_FIELDS.map((field) => [field, item[field]])) as Offer;
}

/** An offer as its seller sees it: with the policy that answers for it (the default strategy resolved). */
export function toSellerOffer(item: OfferItem): SellerOffer {
  return { ...item, negotiationStrategy: effectiveStrategy(item.negotiationStrategy, item.floorUnitPrice !== null) };
}

const offersFor = (agentId: string, offers: readonly OfferItem[]) =>
  [...offers].sort((a, b) => (a.offerId < b.offerId ? -1 : 1)).map((offer) => (offer.sellerId === agentId ? toSellerOffer(offer) : toPublicOffer(offer)));

export async function getProductForCaller(agentId: string, productId: string) {
  const found = await getProductWithOffers(productId);
  // An inactive product is invisible to everyone but its seller.
  if (!found || (found.product.status !== 'active' && found.product.sellerId !== agentId)) throw fail.notFound(`Product ${productId} not found`);
  return { ...toProduct(found.product), offers: offersFor(agentId, found.offers) };
}

export async function getOfferForCaller(agentId: string, offerId: string): Promise<Offer | SellerOffer> {
  const offer = await getOffer(offerId);
  if (!offer) throw fail.notFound(`Offer ${offerId} not found`);
  if (offer.sellerId === agentId) return toSellerOffer(offer);
  // A withdrawn standing offer belongs to an inactive product, which others may not see.
  if (offer.status === 'withdrawn') throw fail.notFound(`Offer ${offerId} not found`);
  return toPublicOffer(offer);
}

/** The seller's own products with their standing offers (private fields included), newest first. */
export async function listOwnProducts(sellerId: string, query: { limit: number; cursor?: string | undefined; status?: 'active' | 'inactive' | undefined; sku?: string | undefined }) {
  if (query.sku !== undefined) {
    decodeCursor(`products:${sellerId}:sku`, query.cursor); // a cursor from another list is refused, as everywhere
    const product = await getProductBySku(sellerId, query.sku);
    const matches = product && (!query.status || product.status === query.status) ? [product] : [];
    return { items: await withOffers(matches), nextCursor: null };
  }
  const scope = `products:${sellerId}:${query.status ?? '*'}`;
  const page = await listSellerProducts(sellerId, { limit: query.limit, startKey: decodeCursor(scope, query.cursor), status: query.status });
  return { items: await withOffers(page.items), nextCursor: encodeCursor(scope, page.lastKey) };
}

async function withOffers(products: readonly ProductItem[]) {
  const offers = await getOffers(products.map((product) => product.standingOfferId));
  return products.map((product) => {
    const offer = offers.get(product.standingOfferId);
    return { ...toProduct(product), offers: offer ? [toSellerOffer(offer)] : [] };
  });
}
