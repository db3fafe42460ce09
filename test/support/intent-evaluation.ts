// Scores the labelled intent set against a search index of the generated demo catalog, through the
// endpoint's own answer (shared/domain/search.ts answerIntent): field accuracy (each labelled field read
// exactly as labelled), the top-3 hit rate (an answering product among the first three results),
// empty-when-expected (nothing returned, with suggestions, where the catalog has nothing), relaxation
// reported where the request needs it, excluded items returned (none allowed), honesty where nothing fits
// (nothing, or every item says what it lacks), silent currency crossings (an item priced in another
// currency than the request's that does not say so: none allowed) and broken price caps (an item over the
// cap, per piece or per unit sold as labelled, that does not say so: none allowed). Shared by
// test/unit/intent-set.test.ts and the benchmark.
import { rmSync } from 'node:fs';
import { ulid } from 'ulid';
import { generateCatalog } from '../../lib/demo/catalog.ts';
import { newReplicaFile, SearchReplica, type SearchChange } from '../../shared/data/search-replica/index.ts';
import { searchWordsFile } from '../../lib/search-words.ts';
import { parseSearchWords, type SearchWords } from '../../shared/data/search-words.ts';
import { answerIntent, intentLexicon } from '../../shared/domain/search.ts';
import { LABELLED_INTENTS, type LabelledIntent, type ProductLabel } from '../fixtures/labelled-intents.ts';

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
          attributes: row.attributes, unit: row.unit, packSize: row.packSize ?? 1, price: row.price, availableQuantity: row.availableQuantity, minOrderQuantity: row.minOrderQuantity,
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

let words: SearchWords | undefined;
/** The English and country words, built as the bundled file is (the same builder, in memory). */
export function testSearchWords(): SearchWords {
  words ??= parseSearchWords(searchWordsFile());
  return words;
}

export interface IntentResult {
  intent: string;
  wrongFields: string[];
  fields: number;
  /** An answering product among the first three (intents labelled with `relevant`). */
  hit: boolean | null;
  /** Nothing returned, with suggestions (intents labelled `empty`). */
  emptyAsExpected: boolean | null;
  /** The answer says what it relaxed (intents labelled `relaxed`). */
  relaxationReported: boolean | null;
  /** Items of the first page that the label rules out. */
  excludedReturned: string[];
  /** Nothing, or only items that say what they lack (intents labelled `nothingFits`). */
  nothingFitsHonest: boolean | null;
  /** Items priced in another currency than the labelled one that do not say they relax it. */
  currencyCrossed: string[];
  /** Items over (or under) the labelled price bounds that do not say they relax them. */
  capBroken: string[];
  items: number;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word) => b.includes(word));
}

function fits(label: ProductLabel, title: string, category: string | null): boolean {
  return (
    (!label.category || (category ?? '').startsWith(label.category)) &&
    (label.title ?? []).every((word) => title.toLowerCase().includes(word.toLowerCase())) &&
    !(label.notTitle ?? []).some((word) => title.toLowerCase().includes(word.toLowerCase()))
  );
}

type AnswerItem = ReturnType<typeof answerIntent>['items'][number];
const says = (item: AnswerItem, filter: string) => item.relaxed.filters.includes(filter);
const lacksSomething = (item: AnswerItem) => item.relaxed.keywords.length + item.relaxed.filters.length > 0;
/** Pieces in the unit sold (a box of 100: 100); 1 where the product does not say. */
const piecesPerUnit = (item: AnswerItem) => (item.product as { packSize?: number }).packSize ?? 1;
const describeItem = (item: AnswerItem) => `${item.product.title} (${item.offer.unitPrice.amount} ${item.offer.unitPrice.currency}${piecesPerUnit(item) > 1 ? ` per ${piecesPerUnit(item)}` : ''})`;

/**
 * Items the labelled currency and price bounds rule out that do not say they relax them. An item in
 * another currency says so only when it lists `currency` in its `relaxed`, the interpretation lists it in
 * its own, and a sentence of the interpretation (a `currency-relaxed` note) says so.
 */
function moneyBroken(label: LabelledIntent, answer: ReturnType<typeof answerIntent>) {
  const { items, interpretation } = answer;
  const { currency, maxPrice, minPrice } = (label.filters ?? {}) as { currency?: string; maxPrice?: number; minPrice?: number };
  if (typeof currency !== 'string') return { currencyCrossed: [], capBroken: [] };
  const toldSo = 'currency' in interpretation.relaxed.filters && interpretation.notes.some((note) => note.type === 'currency-relaxed');
  const crossed = items.filter((item) => item.offer.unitPrice.currency !== currency && !(says(item, 'currency') && toldSo));
  const broken = items.filter((item) => {
    if (item.offer.unitPrice.currency !== currency || says(item, 'currency')) return false;
    const amount = item.offer.unitPrice.amount;
    // Per piece: amount ÷ pieces, compared without rounding (amount ≤ cap × pieces).
    const pieces = label.pricePer === 'unit' ? 1 : piecesPerUnit(item);
    return (typeof maxPrice === 'number' && !says(item, 'maxPrice') && amount > maxPrice * pieces) || (typeof minPrice === 'number' && !says(item, 'minPrice') && amount < minPrice * pieces);
  });
  return { currencyCrossed: crossed.map(describeItem), capBroken: broken.map(describeItem) };
}

export function evaluateIntent(index: SearchReplica, label: LabelledIntent): IntentResult {
  const answer = answerIntent(index, intentLexicon(index, testSearchWords()), label.intent, { limit: 20, now: new Date() });
  const { interpretation } = answer;
  const wrong: string[] = [];
  let fields = 0;
  if (label.keywords) {
    fields += 1;
    if (!sameSet(interpretation.keywords, label.keywords)) wrong.push(`keywords ${JSON.stringify(interpretation.keywords)}`);
  }
  fields += 1; // quantity is always labelled: absent means none
  if (interpretation.quantity !== (label.quantity ?? null)) wrong.push(`quantity ${interpretation.quantity}`);
  fields += 1;
  if (interpretation.sort !== (label.sort ?? 'relevance')) wrong.push(`sort ${interpretation.sort}`);
  const read = { ...interpretation.filters, ...interpretation.relaxed.filters } as Record<string, unknown>;
  const expected = label.filters ?? {};
  for (const key of new Set([...Object.keys(expected), ...Object.keys(read)])) {
    fields += 1;
    const got = read[key];
    const want = expected[key];
    const same = typeof want === 'string' && typeof got === 'string' ? want.toLowerCase() === got.toLowerCase() : JSON.stringify(want) === JSON.stringify(got);
    if (!same) wrong.push(`${key} ${JSON.stringify(got)}`);
  }
  if (label.excludedWords) {
    fields += 1;
    if (!sameSet(interpretation.excluded, label.excludedWords)) wrong.push(`excluded ${JSON.stringify(interpretation.excluded)}`);
  }
  const items = answer.items;
  const top3 = items.slice(0, 3);
  const relaxedSomething = interpretation.relaxed.keywords.length > 0 || Object.keys(interpretation.relaxed.filters).length > 0;
  return {
    intent: label.intent,
    wrongFields: wrong,
    fields,
    hit: label.relevant ? top3.some((item) => fits(label.relevant as ProductLabel, item.product.title, item.product.category)) : null,
    emptyAsExpected: label.empty ? items.length === 0 && answer.suggestions.length > 0 : null,
    relaxationReported: label.relaxed ? relaxedSomething && items.some((item) => item.relaxed.keywords.length + item.relaxed.filters.length > 0) : null,
    excludedReturned: label.excluded ? items.filter((item) => fits(label.excluded as ProductLabel, item.product.title, item.product.category)).map((item) => item.product.title) : [],
    nothingFitsHonest: label.nothingFits ? (items.length === 0 ? answer.suggestions.length > 0 : items.every(lacksSomething)) : null,
    ...moneyBroken(label, answer),
    items: items.length,
  };
}

const rate = (results: readonly IntentResult[], pick: (result: IntentResult) => boolean | null) => {
  const scored = results.map(pick).filter((value): value is boolean => value !== null);
  return { rate: scored.length === 0 ? 1 : scored.filter(Boolean).length / scored.length, of: scored.length };
};

export function evaluateIntentSet(index: SearchReplica, labels: readonly LabelledIntent[] = LABELLED_INTENTS) {
  const results = labels.map((label) => evaluateIntent(index, label));
  const fields = results.reduce((sum, result) => sum + result.fields, 0);
  const wrong = results.reduce((sum, result) => sum + result.wrongFields.length, 0);
  const top3 = rate(results, (result) => result.hit);
  const empty = rate(results, (result) => result.emptyAsExpected);
  const relaxed = rate(results, (result) => result.relaxationReported);
  const nothingFits = rate(results, (result) => result.nothingFitsHonest);
  return {
    intents: results.length,
    intentFieldAccuracy: (fields - wrong) / fields,
    intentTop3: top3.rate,
    top3Intents: top3.of,
    emptyWhenExpected: empty.rate,
    emptyIntents: empty.of,
    relaxationReported: relaxed.rate,
    relaxedIntents: relaxed.of,
    /** Intents that returned an item their label rules out (target: none). */
    excludedReturned: results.filter((result) => result.excludedReturned.length > 0).length,
    /** Intents labelled `nothingFits` answered with nothing, or only with items that say what they lack. */
    nothingFitsHonest: nothingFits.rate,
    nothingFitsIntents: nothingFits.of,
    /** Intents that returned an item in another currency than the request's without saying so (target: none). */
    silentCurrencyCrossing: results.filter((result) => result.currencyCrossed.length > 0).length,
    /** Intents that returned an item outside the request's price bounds without saying so (target: none). */
    capBroken: results.filter((result) => result.capBroken.length > 0).length,
    misses: results.filter(
      (result) =>
        result.wrongFields.length > 0 || result.hit === false || result.emptyAsExpected === false || result.relaxationReported === false || result.excludedReturned.length > 0 ||
        result.nothingFitsHonest === false || result.currencyCrossed.length > 0 || result.capBroken.length > 0,
    ),
  };
}
