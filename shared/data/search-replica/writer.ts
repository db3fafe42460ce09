// Applying the change log to a replica: each entry one transaction that stores the new product and
// offer images and re-derives the searchable row (and the vocabulary's counts) of every product touched.
import { rmSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import type { Offer, Product } from '../../schemas/catalog.ts';
import { searchableText, surfaceWords } from './text.ts';

/** A product as the index keeps it: the public record plus which offer is its standing one. */
export type IndexedProduct = Product & { standingOfferId: string };

/** One change from the log: the new public image of a product or an offer. */
export type SearchChange = { kind: 'product'; item: IndexedProduct } | { kind: 'offer'; item: Offer };

/**
 * Applies a log entry's changes in one transaction and records its sequence; `vocabulary` (word →
 * searchable products using it), when loaded, moves with the word counts. On failure the transaction is
 * rolled back and the error thrown (the vocabulary may then be off: drop it).
 */
export function applyChanges(db: DatabaseSync, seq: number, changes: readonly SearchChange[], vocabulary: Map<string, number> | undefined): void {
  const touched = new Set<string>();
  db.exec('BEGIN');
  try {
    const putProduct = db.prepare(
      `INSERT INTO products (product_id, standing_offer_id, first_seq, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (product_id) DO UPDATE SET standing_offer_id = excluded.standing_offer_id, body = excluded.body`,
    );
    const putOffer = db.prepare(`INSERT INTO offers (offer_id, product_id, body) VALUES (?, ?, ?) ON CONFLICT (offer_id) DO UPDATE SET body = excluded.body`);
    for (const change of changes) {
      if (change.kind === 'product') {
        putProduct.run(change.item.productId, change.item.standingOfferId, seq, JSON.stringify(change.item));
        touched.add(change.item.productId);
      } else {
        putOffer.run(change.item.offerId, change.item.productId, JSON.stringify(change.item));
        touched.add(change.item.productId);
      }
    }
    for (const productId of touched) refreshDoc(db, productId, vocabulary);
    db.prepare("INSERT INTO meta (key, value) VALUES ('seq', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(seq);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** Re-derives a product's searchable row from its product and standing offer. */
function refreshDoc(db: DatabaseSync, productId: string, vocabulary: Map<string, number> | undefined): void {
  const row = db.prepare('SELECT rowid, standing_offer_id, first_seq, body FROM products WHERE product_id = ?').get(productId) as
    | { rowid: number; standing_offer_id: string; first_seq: number; body: string }
    | undefined;
  if (!row) return;
  const previous = db.prepare('SELECT rowid FROM docs WHERE rowid = ?').get(row.rowid);
  const product = JSON.parse(row.body) as IndexedProduct;
  if (previous) {
    db.prepare('DELETE FROM docs WHERE rowid = ?').run(row.rowid);
    db.prepare('DELETE FROM docs_text WHERE rowid = ?').run(row.rowid);
  }
  const offerRow = db.prepare('SELECT body FROM offers WHERE offer_id = ?').get(row.standing_offer_id) as { body: string } | undefined;
  const offer = offerRow ? (JSON.parse(offerRow.body) as Offer) : undefined;
  const searchable = product.status === 'active' && offer?.status === 'active';
  // The vocabulary counts searchable products per word; a change moves the counts.
  if (previous && !searchable) countWords(db, product, -1, vocabulary);
  if (!previous && searchable) countWords(db, product, +1, vocabulary);
  if (!searchable || !offer) return;
  db.prepare(
    `INSERT INTO docs (rowid, product_id, offer_id, seller_id, category, brand_key, currency, price, available, moq, lead_days,
       ships_from, created_at, valid_until, first_seq, attributes, pack_size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.rowid, product.productId, offer.offerId, product.sellerId, product.category, product.brand?.toLowerCase() ?? null,
    offer.unitPrice.currency, offer.unitPrice.amount, product.availableQuantity, Math.max(product.minOrderQuantity, offer.minQuantity),
    product.leadTimeDays, product.shipsFrom, product.createdAt, offer.validUntil, row.first_seq, JSON.stringify(lowercaseStrings(product.attributes)),
    product.packSize ?? 1,
  );
  const { title, body } = searchableText(product);
  db.prepare('INSERT INTO docs_text (rowid, title, body) VALUES (?, ?, ?)').run(row.rowid, title, body);
}

function countWords(db: DatabaseSync, product: Product, delta: number, vocabulary: Map<string, number> | undefined): void {
  const { title, body } = searchableText(product);
  const words = new Set(surfaceWords(`${title} ${body}`));
  const update = db.prepare('INSERT INTO words (word, products) VALUES (?, ?) ON CONFLICT (word) DO UPDATE SET products = products + excluded.products');
  for (const word of words) {
    update.run(word, delta);
    if (vocabulary) vocabulary.set(word, (vocabulary.get(word) ?? 0) + delta);
  }
}

function lowercaseStrings(attributes: Record<string, string | number | boolean>): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, typeof value === 'string' ? value.toLowerCase() : value]));
}

/** Writes a compact copy of the replica to `file` (for a snapshot). */
export function writeCopy(db: DatabaseSync, file: string): void {
  rmSync(file, { force: true });
  db.prepare('VACUUM INTO ?').run(file);
}
