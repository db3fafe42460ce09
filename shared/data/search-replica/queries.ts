// Reading the replica: the query planner (filters as SQL, the match, and which plan a search runs by how
// many products the match or the category allows), existence tests, and the lookups that reading and
// relaxing intents need (vocabulary, facets, categories, phrases, which products hold which terms).
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { Offer, Product } from '../../schemas/catalog.ts';
import { matchExpression, phrase, type MatchTerms, type ReplicaTerm } from './match.ts';
import type { IndexedProduct } from './writer.ts';

export interface ReplicaFilters {
  category?: string | undefined;
  sellerId?: string | undefined;
  brand?: string | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  /** What the price bounds bound: one unit sold (the default) or one piece (the price ÷ packSize). */
  pricePer?: 'unit' | 'piece' | undefined;
  currency?: string | undefined;
  minAvailableQuantity?: number | undefined;
  /** One country, or any of several. */
  shipsFrom?: string | readonly string[] | undefined;
  maxLeadTimeDays?: number | undefined;
  attributes?: Record<string, string | number | boolean> | undefined;
  /** Only items that can serve this many units (stock at least, minimum order at most). */
  quantity?: number | undefined;
  /** Only products sold in packs (packSize over 1): whether a price per piece differs from the unit's. */
  packed?: boolean | undefined;
}

export interface ReplicaQuery extends MatchTerms {
  filters: ReplicaFilters;
  sort: 'relevance' | 'price_asc' | 'price_desc' | 'newest' | 'lead_time';
  limit: number;
  /** Product ids already returned on earlier pages of this result set. */
  exclude?: readonly string[];
  /** Only products indexed at or before this log sequence (the result set's first page). */
  upToSeq?: number;
  now: string;
}

export interface ReplicaHit {
  product: Product;
  offer: Offer;
  score: number;
}

/** Sorts that an index serves in order (their ORDER BY in `search` matches the index). */
const SORT_INDEXES: Partial<Record<ReplicaQuery['sort'], string>> = { price_asc: 'docs_by_price', price_desc: 'docs_by_price', newest: 'docs_by_created' };
/**
 * Above this many candidates, a sorted search walks its sort index instead of sorting every candidate.
 * High, because prices and dates correlate with categories and words: the walk can pass many rows first.
 */
const WALK_SORT_INDEX_ABOVE = 10_000;
/** Above this many matches, a relevance search ranks the match alone first and filters the best few pages. */
const RANK_MATCH_FIRST_ABOVE = 2_000;

/** The filter conditions of a query (on `docs d`), with their parameters. */
function conditions(query: ReplicaQuery): { where: string[]; params: SQLInputValue[] } {
  const where: string[] = ['(d.valid_until IS NULL OR d.valid_until > ?)'];
  const params: SQLInputValue[] = [query.now];
  const add = (clause: string, ...values: SQLInputValue[]) => {
    where.push(clause);
    params.push(...values);
  };
  const f = query.filters;
  if (f.category !== undefined) {
    // One index range (the category itself up to '<category>0', '0' being the character after '/'),
    // then the exact test: the category or one below it, never a sibling such as 'safety-x'.
    where.push('d.category >= ? AND d.category < ? AND (d.category = ? OR d.category > ?)');
    params.push(f.category, `${f.category}0`, f.category, `${f.category}/`);
  }
  if (f.sellerId !== undefined) add('d.seller_id = ?', f.sellerId);
  if (f.brand !== undefined) add('d.brand_key = ?', f.brand.toLowerCase());
  if (f.currency !== undefined) add('d.currency = ?', f.currency);
  // Per piece: the price ÷ the pieces in the unit, compared as price against bound × pieces (no rounding).
  const pieces = f.pricePer === 'piece' ? ' * d.pack_size' : '';
  if (f.minPrice !== undefined) add(`d.price >= ?${pieces}`, f.minPrice);
  if (f.maxPrice !== undefined) add(`d.price <= ?${pieces}`, f.maxPrice);
  if (f.packed) add('d.pack_size > 1');
  if (f.minAvailableQuantity !== undefined) add('d.available >= ?', f.minAvailableQuantity);
  if (typeof f.shipsFrom === 'string') add('d.ships_from = ?', f.shipsFrom);
  else if (f.shipsFrom !== undefined) add('d.ships_from IN (SELECT value FROM json_each(?))', JSON.stringify(f.shipsFrom));
  if (f.maxLeadTimeDays !== undefined) add('d.lead_days <= ?', f.maxLeadTimeDays);
  if (f.quantity !== undefined) add('d.available >= ? AND d.moq <= ?', f.quantity, f.quantity);
  for (const [name, value] of Object.entries(f.attributes ?? {})) {
    const path = `$.${JSON.stringify(name)}`;
    if (typeof value === 'boolean') {
      where.push('json_type(d.attributes, ?) = ?');
      params.push(path, value ? 'true' : 'false');
    } else if (typeof value === 'number') {
      where.push("json_type(d.attributes, ?) IN ('integer', 'real') AND json_extract(d.attributes, ?) = ?");
      params.push(path, path, value);
    } else {
      where.push("json_type(d.attributes, ?) = 'text' AND json_extract(d.attributes, ?) = ?");
      params.push(path, path, value.toLowerCase());
    }
  }
  if (query.upToSeq !== undefined) add('d.first_seq <= ?', query.upToSeq);
  if (query.exclude && query.exclude.length > 0) {
    where.push('d.product_id NOT IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(query.exclude));
  }
  return { where, params };
}

/**
 * Whether a query narrows the products beyond the text: then ranking the match alone first would
 * often keep too few and need the full ranking after it (twice the work), so the full ranking runs at once.
 */
function filtered(filters: ReplicaFilters): boolean {
  return Object.entries(filters).some(([name, value]) => value !== undefined && !(name === 'attributes' && Object.keys(value as object).length === 0));
}

/** Whether the query finds anything: the match and the filters, without ranking or sorting. */
export function exists(db: DatabaseSync, query: ReplicaQuery): boolean {
  const { where, params } = conditions(query);
  const expression = matchExpression(query);
  const sql = expression
    ? `SELECT 1 FROM docs_text CROSS JOIN docs d ON d.rowid = docs_text.rowid WHERE docs_text MATCH ? AND ${where.join(' AND ')} LIMIT 1`
    : `SELECT 1 FROM docs d WHERE ${where.join(' AND ')} LIMIT 1`;
  return db.prepare(sql).get(...(expression ? [expression] : []), ...params) !== undefined;
}

export function search(db: DatabaseSync, query: ReplicaQuery): { hits: ReplicaHit[]; more: boolean } {
  const { where, params } = conditions(query);
  const f = query.filters;
  const expression = matchExpression(query);
  const text = expression.length > 0;
  const order = {
    relevance: text ? 'rank, d.rowid' : 'd.created_at DESC, d.product_id DESC',
    price_asc: 'd.currency, d.price, d.product_id',
    price_desc: 'd.currency DESC, d.price DESC, d.product_id DESC',
    newest: 'd.created_at DESC, d.product_id DESC',
    lead_time: text ? 'd.lead_days, rank, d.rowid' : 'd.lead_days, d.created_at DESC, d.product_id',
  }[query.sort];
  // Price and date orders carry no score.
  const ranked = text && (query.sort === 'relevance' || query.sort === 'lead_time');
  const score = ranked ? 'bm25(docs_text, 3.0, 1.0)' : '0';
  const limit = query.limit + 1;

  // The plan, by how many products the match or the category allows (both counts are cheap):
  // - few: start from them (the match as the outer loop: CROSS JOIN, else a selective filter can make
  //   SQLite run the match once per filtered row) and sort them all;
  // - many, in an order an index holds: walk that index and stop after a page;
  // - many, by relevance and no filter: rank the match alone, keep the best few pages' worth; only if
  //   too few of them are still valid does the full ranking run.
  const sortIndex = text || query.sort !== 'relevance' ? SORT_INDEXES[query.sort] : 'docs_by_created';
  const candidates = text ? matchCount(db, expression) : f.category !== undefined ? categoryCount(db, f.category) : 0;
  type Row = { rowid: number; offerId: string; rank: number };
  const select = (from: string, rank: string, first: { clause: string; value: SQLInputValue } | undefined, rowLimit: number) =>
    db
      .prepare(`SELECT d.rowid AS rowid, d.offer_id AS offerId, ${rank} AS rank FROM ${from} WHERE ${[...(first ? [first.clause] : []), ...where].join(' AND ')} ORDER BY ${order} LIMIT ?`)
      .all(...(first ? [first.value] : []), ...params, rowLimit) as Row[];
  let rows: Row[] | undefined;
  if (candidates > WALK_SORT_INDEX_ABOVE && sortIndex !== undefined) {
    const inMatch = text ? { clause: '+d.rowid IN (SELECT rowid FROM docs_text WHERE docs_text MATCH ?)', value: expression } : undefined;
    rows = select(`docs d INDEXED BY ${sortIndex}`, '0', inMatch, limit);
  } else if (candidates > RANK_MATCH_FIRST_ABOVE && text && query.sort === 'relevance' && !filtered(f)) {
    const best = (limit + (query.exclude?.length ?? 0)) * 4;
    const top = `(SELECT rowid, ${score} AS rank FROM docs_text WHERE docs_text MATCH ? ORDER BY rank, rowid LIMIT ${best}) m CROSS JOIN docs d ON d.rowid = m.rowid`;
    rows = db
      .prepare(`SELECT d.rowid AS rowid, d.offer_id AS offerId, m.rank AS rank FROM ${top} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`)
      .all(expression, ...params, limit) as Row[];
    if (rows.length < limit && best < candidates) rows = undefined;
  }
  if (rows === undefined) {
    rows = text
      ? select('docs_text CROSS JOIN docs d ON d.rowid = docs_text.rowid', score, { clause: 'docs_text MATCH ?', value: expression }, limit)
      : select(f.category !== undefined ? 'docs d INDEXED BY docs_category' : 'docs d', '0', undefined, limit);
  }
  const productBody = db.prepare('SELECT body FROM products WHERE rowid = ?');
  const offerBody = db.prepare('SELECT body FROM offers WHERE offer_id = ?');
  const hits = rows.slice(0, query.limit).map((row) => {
    const { standingOfferId: _standing, ...stored } = JSON.parse((productBody.get(row.rowid) as { body: string }).body) as IndexedProduct;
    // Products indexed before pack sizes existed are sold by the piece.
    const product: Product = { ...stored, packSize: stored.packSize ?? 1 };
    const offer = JSON.parse((offerBody.get(row.offerId) as { body: string }).body) as Offer;
    return { product, offer, score: row.rank === 0 ? 0 : Math.round(-row.rank * 10_000) / 10_000 };
  });
  return { hits, more: rows.length > query.limit };
}

/**
 * The sellers with at least one searchable product the query finds (its match and filters, no ranking):
 * whom a request for quotes reaches. One pass over the matching rows, whatever their number.
 */
export function sellersMatching(db: DatabaseSync, query: Pick<ReplicaQuery, 'words' | 'not' | 'filters' | 'now'>): string[] {
  const { where, params } = conditions({ ...query, sort: 'relevance', limit: 0 });
  const expression = matchExpression(query);
  const sql = expression
    ? `SELECT DISTINCT d.seller_id AS sellerId FROM docs_text CROSS JOIN docs d ON d.rowid = docs_text.rowid WHERE docs_text MATCH ? AND ${where.join(' AND ')}`
    : `SELECT DISTINCT d.seller_id AS sellerId FROM docs d WHERE ${where.join(' AND ')}`;
  const rows = db.prepare(sql).all(...(expression ? [expression] : []), ...params) as { sellerId: string }[];
  return rows.map((row) => row.sellerId).sort();
}

/** Searchable products in a category or below it (from the category index alone). */
function categoryCount(db: DatabaseSync, category: string): number {
  return (
    db.prepare('SELECT count(*) AS n FROM docs WHERE category >= ? AND category < ? AND (category = ? OR category > ?)').get(category, `${category}0`, category, `${category}/`) as { n: number }
  ).n;
}

/** Products matching a full-text expression (cheap: no ranking, no rows). */
function matchCount(db: DatabaseSync, expression: string): number {
  return (db.prepare('SELECT count(*) AS n FROM docs_text WHERE docs_text MATCH ?').get(expression) as { n: number }).n;
}

/** Searchable products (the `docs` rows). */
export function searchableCount(db: DatabaseSync): number {
  return (db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n;
}

/** Surface words of searchable products, with how many products use each. */
export function readVocabulary(db: DatabaseSync): Map<string, number> {
  const rows = db.prepare('SELECT word, products FROM words WHERE products > 0').all() as { word: string; products: number }[];
  return new Map(rows.map((row) => [row.word, row.products]));
}

/** Distinct brands and categories of searchable products. */
export function readFacets(db: DatabaseSync): { brands: string[]; categories: string[] } {
  const brands = db.prepare('SELECT DISTINCT brand_key AS value FROM docs WHERE brand_key IS NOT NULL').all() as { value: string }[];
  const categories = db.prepare('SELECT DISTINCT category AS value FROM docs WHERE category IS NOT NULL').all() as { value: string }[];
  return { brands: brands.map((row) => row.value), categories: categories.map((row) => row.value) };
}

/** The categories with the most searchable products holding any of these terms, most first (counted over the first 1,000 matches, so a common word costs no more than a rare one). */
export function categoriesHolding(db: DatabaseSync, terms: readonly ReplicaTerm[], limit: number, now: string): string[] {
  const expression = matchExpression({ words: terms, match: 'any' });
  if (expression === '') return [];
  const rows = db
    .prepare(
      'SELECT category, count(*) AS n FROM (SELECT d.category AS category FROM docs_text CROSS JOIN docs d ON d.rowid = docs_text.rowid ' +
        'WHERE docs_text MATCH ? AND d.category IS NOT NULL AND (d.valid_until IS NULL OR d.valid_until > ?) LIMIT 1000) GROUP BY category ORDER BY n DESC, category LIMIT ?',
    )
    .all(expression, now, limit) as { category: string }[];
  return rows.map((row) => row.category);
}

/** The top-level categories with the most searchable products, most first. */
export function largestCategories(db: DatabaseSync, limit: number): string[] {
  const rows = db
    .prepare(
      "SELECT CASE WHEN instr(category, '/') > 0 THEN substr(category, 1, instr(category, '/') - 1) ELSE category END AS top, count(*) AS n " +
        'FROM docs WHERE category IS NOT NULL GROUP BY top ORDER BY n DESC, top LIMIT ?',
    )
    .all(limit) as { top: string }[];
  return rows.map((row) => row.top);
}

/** Whether some searchable product's text holds these words in a row. */
export function hasPhrase(db: DatabaseSync, words: readonly string[]): boolean {
  const expression = phrase(words.join(' '));
  if (expression === '""') return false;
  return db.prepare('SELECT 1 FROM docs_text WHERE docs_text MATCH ? LIMIT 1').get(expression) !== undefined;
}

/** For each term (as in ReplicaQuery), which of these products hold it. */
export function holding(db: DatabaseSync, terms: readonly ReplicaTerm[], productIds: readonly string[]): Set<string>[] {
  if (productIds.length === 0 || terms.length === 0) return terms.map(() => new Set());
  // A product's searchable row has its product row's rowid; FTS5 then tests each rowid directly
  // instead of walking a common word's whole posting list.
  const rows = db.prepare('SELECT rowid, product_id AS id FROM products WHERE product_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(productIds)) as { rowid: number; id: string }[];
  const idOf = new Map(rows.map((row) => [row.rowid, row.id]));
  const statement = db.prepare(`SELECT rowid FROM docs_text WHERE docs_text MATCH ? AND rowid IN (${rows.map(() => '?').join(', ')})`);
  return terms.map((term) => {
    const expression = matchExpression({ words: [term] });
    if (expression === '' || rows.length === 0) return new Set<string>();
    return new Set((statement.all(expression, ...rows.map((row) => row.rowid)) as { rowid: number }[]).map((row) => idOf.get(row.rowid) as string));
  });
}
