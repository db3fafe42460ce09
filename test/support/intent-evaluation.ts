// Scores the labelled intent set against a search index of the generated demo catalog: field
// accuracy (each labelled field read exactly as labelled) and the top-3 hit rate (an answering product
// among the first three results). Shared by test/unit/intent-set.test.ts and the benchmark.
import { rmSync } from 'node:fs';
import { ulid } from 'ulid';
import { generateCatalog } from '../../lib/demo/catalog.ts';
import { newReplicaFile, SearchReplica, type ReplicaHit, type SearchChange } from '../../shared/data/search-replica.ts';
import { relaxations } from '../../shared/domain/search.ts';
import { parseIntent } from '../../shared/domain/search-intent.ts';
import { LABELLED_INTENTS, type LabelledIntent } from '../fixtures/labelled-intents.ts';

/** A replica holding `products` generated products (as the stream would deliver them), and how to drop it. */
export function generatedIndex(products: number, seed = 42): { index: SearchReplica; dispose: () => void } {
  const index = new SearchReplica(newReplicaFile());
  const now = new Date('2026-11-01T00:00:00.000Z').toISOString();
  let seq = 0;
  for (const rows of generateCatalog({ products, seed }).values()) {
    const sellerId = `agt_${ulid()}`;
    const changes: SearchChange[] = [];
    for (const row of rows) {
      const productId = `prd_${ulid()}`;
      const offerId = `ofr_${ulid()}`;
      changes.push({
        kind: 'product',
        item: {
          productId, sellerId, sku: row.sku, title: row.title, description: row.description, category: row.category, brand: row.brand,
          attributes: row.attributes, unit: row.unit, price: row.price, availableQuantity: row.availableQuantity, minOrderQuantity: row.minOrderQuantity,
          leadTimeDays: row.leadTimeDays, shipsFrom: row.shipsFrom, imageUrls: [], status: 'active', sourceFeedId: null, createdAt: now, updatedAt: now,
          standingOfferId: offerId,
        },
      });
      changes.push({
        kind: 'offer',
        item: { offerId, productId, sellerId, unitPrice: row.price, minQuantity: row.minOrderQuantity, priceTiers: [], negotiable: row.negotiable, validUntil: null, status: 'active', createdAt: now, updatedAt: now },
      });
      if (changes.length >= 2000) index.apply(++seq, changes.splice(0));
    }
    if (changes.length > 0) index.apply(++seq, changes);
  }
  return { index, dispose: () => { index.close(); rmSync(index.file, { force: true }); } };
}

export interface IntentResult {
  intent: string;
  wrongFields: string[];
  fields: number;
  hit: boolean;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word) => b.includes(word));
}

export function evaluateIntent(index: SearchReplica, label: LabelledIntent): IntentResult {
  const facets = index.facets();
  const parsed = parseIntent(label.intent, { brands: facets.brands, categories: facets.categories, vocabulary: index.words() });
  const wrong: string[] = [];
  let fields = 0;
  if (label.keywords) {
    fields += 1;
    if (!sameSet(parsed.keywords, label.keywords)) wrong.push(`keywords ${JSON.stringify(parsed.keywords)}`);
  }
  fields += 1; // quantity is always labelled: absent means none
  if (parsed.quantity !== (label.quantity ?? null)) wrong.push(`quantity ${parsed.quantity}`);
  fields += 1;
  if (parsed.sort !== (label.sort ?? 'relevance')) wrong.push(`sort ${parsed.sort}`);
  const expected = label.filters ?? {};
  for (const key of new Set([...Object.keys(expected), ...Object.keys(parsed.filters)])) {
    fields += 1;
    const got = (parsed.filters as Record<string, unknown>)[key];
    const want = expected[key];
    if (typeof want === 'string' && typeof got === 'string' ? want.toLowerCase() !== got.toLowerCase() : want !== got) wrong.push(`${key} ${JSON.stringify(got)}`);
  }
  // The endpoint's own relaxation steps, until one finds something.
  let hits: ReplicaHit[] = [];
  for (const { interpretation, match } of relaxations(parsed, index.words())) {
    const { keywords, filters, quantity, sort } = interpretation;
    hits = index.search({ words: keywords, filters: { ...filters, ...(quantity ? { quantity } : {}) }, sort, limit: 3, match, now: new Date().toISOString() }).hits;
    if (hits.length > 0) break;
  }
  const answers = (title: string, category: string | null) =>
    (!label.relevant.category || (category ?? '').startsWith(label.relevant.category)) &&
    (label.relevant.title ?? []).every((word) => title.toLowerCase().includes(word.toLowerCase()));
  return { intent: label.intent, wrongFields: wrong, fields, hit: hits.some((hit) => answers(hit.product.title, hit.product.category)) };
}

export function evaluateIntentSet(index: SearchReplica) {
  const results = LABELLED_INTENTS.map((label) => evaluateIntent(index, label));
  const fields = results.reduce((sum, result) => sum + result.fields, 0);
  const wrong = results.reduce((sum, result) => sum + result.wrongFields.length, 0);
  return {
    intents: results.length,
    intentFieldAccuracy: (fields - wrong) / fields,
    intentTop3: results.filter((result) => result.hit).length / results.length,
    misses: results.filter((result) => result.wrongFields.length > 0 || !result.hit),
  };
}

