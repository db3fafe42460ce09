// Products and their standing offers (contract §3 "Product", "Offer").
// A product's base key is its (seller, sku), the feed's upsert key: a feed row finds the product it
// updates with one BatchGetItem, no index read. Its offers carry their own key (an offer is read by
// id), and both carry gsi1 keys under `PRODUCT#<productId>`, so a product with its offers is one Query.
// gsi2 lists a seller's own products, newest first. Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import type { OfferStatus } from '../schemas/catalog.ts';
import { NegotiationStrategy, Product, SellerOffer } from '../schemas/catalog.ts';
import { batchWrite, type WriteRequest } from './batches.ts';
import { defineEntity } from './entity.ts';
import { where } from './expressions.ts';

export const ProductEntity = defineEntity({
  name: 'product',
  schema: z.extend(Product, {
    /** Products written before pack sizes existed read as sold by the piece. */
    packSize: z._default(z.int().check(z.gte(1)), 1),
    /** The product's standing offer (one per product, written with it by every feed row). */
    standingOfferId: z.string(),
    /** The feed row that last wrote the product: the attempt of that feed and the row number in its file. */
    sourceAttempt: z.nullable(z.int()),
    sourceRow: z.nullable(z.int()),
  }),
  key: ({ sellerId, sku }: { sellerId: string; sku: string }) => ({ pk: `CATALOG#${sellerId}#${sku}`, sk: 'PRODUCT' }),
  indexKeys: (product) => ({
    gsi1pk: `PRODUCT#${product.productId}`,
    gsi1sk: 'PRODUCT',
    gsi2pk: `SELLER#${product.sellerId}#PRODUCTS`,
    gsi2sk: product.productId,
  }),
});
export type ProductItem = z.output<typeof ProductEntity.schema>;

export const OfferEntity = defineEntity({
  name: 'offer',
  schema: z.extend(SellerOffer, {
    /** As the feed row set it (the default resolved); offers written before strategies existed read as null. */
    negotiationStrategy: z._default(z.nullable(NegotiationStrategy), null),
  }),
  key: ({ offerId }: { offerId: string }) => ({ pk: `OFFER#${offerId}`, sk: 'OFFER' }),
  indexKeys: (offer) => ({ gsi1pk: `PRODUCT#${offer.productId}`, gsi1sk: `OFFER#${offer.offerId}` }),
});
export type OfferItem = z.output<typeof OfferEntity.schema>;
export type { OfferStatus };

/** The products of one seller with these skus, by sku. */
export async function getProductsBySku(sellerId: string, skus: readonly string[]): Promise<Map<string, ProductItem>> {
  const found = await ProductEntity.batchGet(skus.map((sku) => ({ sellerId, sku })));
  return new Map([...found.values()].map((product) => [product.sku, product]));
}

export function getProductBySku(sellerId: string, sku: string): Promise<ProductItem | undefined> {
  return ProductEntity.get({ sellerId, sku });
}

/** A product and its offers (one Query of gsi1); undefined when no such product. */
export async function getProductWithOffers(productId: string): Promise<{ product: ProductItem; offers: OfferItem[] } | undefined> {
  let startKey: Record<string, unknown> | undefined;
  let product: ProductItem | undefined;
  const offers: OfferItem[] = [];
  do {
    // Parsed per entity: the product and its offers share the index partition.
    const page = await ProductEntity.queryRaw({ index: 'gsi1', partition: `PRODUCT#${productId}`, startKey });
    for (const raw of page.items) {
      if (raw.entity === ProductEntity.name) product = ProductEntity.parse(raw);
      else if (raw.entity === OfferEntity.name) offers.push(OfferEntity.parse(raw));
    }
    startKey = page.lastKey;
  } while (startKey);
  return product ? { product, offers } : undefined;
}

export function getOffer(offerId: string): Promise<OfferItem | undefined> {
  return OfferEntity.get({ offerId });
}

/** Standing offers by id (one BatchGetItem per 100). */
export async function getOffers(offerIds: readonly string[]): Promise<Map<string, OfferItem>> {
  const found = await OfferEntity.batchGet(offerIds.map((offerId) => ({ offerId })));
  return new Map([...found.values()].map((offer) => [offer.offerId, offer]));
}

/** A seller's products, newest first (gsi2), optionally only those of one status. */
export function listSellerProducts(sellerId: string, options: { limit: number; startKey?: Record<string, unknown>; status?: 'active' | 'inactive' }) {
  return ProductEntity.query({
    index: 'gsi2',
    partition: `SELLER#${sellerId}#PRODUCTS`,
    ascending: false,
    limit: options.limit,
    startKey: options.startKey,
    ...(options.status ? { filter: where.eq('status', options.status) } : {}),
  });
}

/** Writes products with their standing offers (two items per product): idempotent upserts, in parallel batches. */
export async function writeProducts(rows: readonly { product: ProductItem; offer: OfferItem }[], options: { parallelism?: number } = {}): Promise<void> {
  const requests: WriteRequest[] = [];
  for (const { product, offer } of rows) {
    requests.push(ProductEntity.putRequest(product, product), OfferEntity.putRequest(offer, offer));
  }
  await batchWrite(requests, options);
}
