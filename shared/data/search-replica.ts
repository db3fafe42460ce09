// The search engine: a replica of the searchable catalog in an embedded SQLite database (node:sqlite)
// with an FTS5 full-text index — BM25 ranking, Porter stemming, prefix queries — beside plain columns
// for filters and sorts. Each search function instance holds one, loaded from the latest snapshot in
// S3 and kept current from the change log (shared/data/search-log.ts). Why SQLite FTS5 and not a
// JavaScript engine: docs/dependencies.md; the design: docs/search.md.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { Offer, Product } from '../schemas/catalog.ts';

/** A product as the index keeps it: the public record plus which offer is its standing one. */
export type IndexedProduct = Product & { standingOfferId: string };

/** One change from the log: the new public image of a product or an offer. */
export type SearchChange = { kind: 'product'; item: IndexedProduct } | { kind: 'offer'; item: Offer };

export interface ReplicaFilters {
  category?: string | undefined;
  sellerId?: string | undefined;
  brand?: string | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  currency?: string | undefined;
  minAvailableQuantity?: number | undefined;
  /** One country, or any of several. */
  shipsFrom?: string | readonly string[] | undefined;
  maxLeadTimeDays?: number | undefined;
  attributes?: Record<string, string | number | boolean> | undefined;
  /** Only items that can serve this many units (stock at least, minimum order at most). */
  quantity?: number | undefined;
}

/**
 * A term to match: a string is a word (each of its words a separate term, the last maybe a prefix); an
 * array is alternatives, any of which satisfies it, each a word or a phrase ("usb c": the words in a row).
 */
export type ReplicaTerm = string | readonly string[];

export interface ReplicaQuery {
  /** Terms to match: all of them (default) or any. */
  words: readonly ReplicaTerm[];
  /** Words or phrases an item must not hold. */
  not?: readonly string[];
  /** The last word also matches longer words (a query typed in part). */
  prefixLast?: boolean;
  filters: ReplicaFilters;
  sort: 'relevance' | 'price_asc' | 'price_desc' | 'newest' | 'lead_time';
  /** All words must match (default), or any (ranked by how well they match). */
  match?: 'all' | 'any';
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

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS products (
    rowid INTEGER PRIMARY KEY, product_id TEXT NOT NULL UNIQUE, standing_offer_id TEXT NOT NULL,
    first_seq INTEGER NOT NULL, body TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS offers (offer_id TEXT PRIMARY KEY, product_id TEXT NOT NULL, body TEXT NOT NULL) WITHOUT ROWID;
  -- Searchable products only (active, with an active standing offer): filter and sort columns.
  CREATE TABLE IF NOT EXISTS docs (
    rowid INTEGER PRIMARY KEY, product_id TEXT NOT NULL, offer_id TEXT NOT NULL, seller_id TEXT NOT NULL,
    category TEXT, brand_key TEXT, currency TEXT NOT NULL, price INTEGER NOT NULL, available INTEGER NOT NULL,
    moq INTEGER NOT NULL, lead_days INTEGER NOT NULL, ships_from TEXT, created_at TEXT NOT NULL,
    valid_until TEXT, first_seq INTEGER NOT NULL, attributes TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS docs_by_price ON docs (currency, price, product_id);
  CREATE INDEX IF NOT EXISTS docs_by_created ON docs (created_at, product_id);
  CREATE INDEX IF NOT EXISTS docs_category ON docs (category);
  CREATE INDEX IF NOT EXISTS docs_seller ON docs (seller_id);
  CREATE VIRTUAL TABLE IF NOT EXISTS docs_text USING fts5 (
    title, body, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
  -- Surface words with the number of searchable products that use them: for typo correction.
  CREATE TABLE IF NOT EXISTS words (word TEXT PRIMARY KEY, products INTEGER NOT NULL) WITHOUT ROWID;
`;

/** Words as the vocabulary keeps them: lowercase letters and digits, accents removed. */
export function surfaceWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

function attributeText(attributes: Record<string, unknown>): string {
  return Object.entries(attributes)
    .map(([name, value]) => (typeof value === 'boolean' ? (value ? name : '') : String(value)))
    .join(' ');
}

function searchableText(product: Product): { title: string; body: string } {
  return {
    title: `${product.title} ${product.brand ?? ''}`,
    body: [product.category?.replaceAll('/', ' ').replaceAll('-', ' ') ?? '', attributeText(product.attributes), product.description ?? ''].join(' \n'),
  };
}

/** Where this process keeps its replica files; files of processes that are gone are removed. */
function replicaDirectory(): string {
  const root = join(tmpdir(), 'agent-marketplace-search');
  mkdirSync(root, { recursive: true });
  for (const entry of readdirSync(root)) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(root, entry), { recursive: true, force: true });
    }
  }
  const directory = join(root, String(process.pid));
  mkdirSync(directory, { recursive: true });
  return directory;
}

let fileCount = 0;
/** A new file name for a replica of this process. */
export function newReplicaFile(): string {
  fileCount += 1;
  return join(replicaDirectory(), `replica-${Date.now()}-${fileCount}.sqlite`);
}

export class SearchReplica {
  readonly file: string;
  private readonly db: DatabaseSync;
  /** Vocabulary for typo correction: word → products using it. */
  private vocabulary: Map<string, number> | undefined;
  /** Brands and categories of searchable products; derived again after the next change. */
  private facetCache: { brands: string[]; categories: string[] } | undefined;

  /** Opens (or creates) the replica in `file`, e.g. a snapshot just downloaded. */
  constructor(file: string) {
    this.file = file;
    this.db = new DatabaseSync(file);
    // A replica is rebuilt from the snapshot and the log after any crash: no journal, no fsync.
    this.db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;');
    this.db.exec(SCHEMA);
  }

  /** The last log sequence applied (0 for an empty replica). */
  get seq(): number {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'seq'").get() as { value: number } | undefined;
    return row?.value ?? 0;
  }

  get size(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** Applies a log entry's changes in one transaction and records its sequence. */
  apply(seq: number, changes: readonly SearchChange[]): void {
    const touched = new Set<string>();
    this.db.exec('BEGIN');
    try {
      const putProduct = this.db.prepare(
        `INSERT INTO products (product_id, standing_offer_id, first_seq, body) VALUES (?, ?, ?, ?)
         ON CONFLICT (product_id) DO UPDATE SET standing_offer_id = excluded.standing_offer_id, body = excluded.body`,
      );
      const putOffer = this.db.prepare(
        `INSERT INTO offers (offer_id, product_id, body) VALUES (?, ?, ?) ON CONFLICT (offer_id) DO UPDATE SET body = excluded.body`,
      );
      for (const change of changes) {
        if (change.kind === 'product') {
          putProduct.run(change.item.productId, change.item.standingOfferId, seq, JSON.stringify(change.item));
          touched.add(change.item.productId);
        } else {
          putOffer.run(change.item.offerId, change.item.productId, JSON.stringify(change.item));
          touched.add(change.item.productId);
        }
      }
      for (const productId of touched) this.refreshDoc(productId);
      this.db.prepare("INSERT INTO meta (key, value) VALUES ('seq', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(seq);
      this.db.exec('COMMIT');
      this.facetCache = undefined;
    } catch (error) {
      this.db.exec('ROLLBACK');
      this.vocabulary = undefined;
      throw error;
    }
  }

  /** Re-derives a product's searchable row from its product and standing offer. */
  private refreshDoc(productId: string): void {
    const row = this.db.prepare('SELECT rowid, standing_offer_id, first_seq, body FROM products WHERE product_id = ?').get(productId) as
      | { rowid: number; standing_offer_id: string; first_seq: number; body: string }
      | undefined;
    if (!row) return;
    const previous = this.db.prepare('SELECT rowid FROM docs WHERE rowid = ?').get(row.rowid);
    const product = JSON.parse(row.body) as IndexedProduct;
    if (previous) {
      this.db.prepare('DELETE FROM docs WHERE rowid = ?').run(row.rowid);
      this.db.prepare('DELETE FROM docs_text WHERE rowid = ?').run(row.rowid);
    }
    const offerRow = this.db.prepare('SELECT body FROM offers WHERE offer_id = ?').get(row.standing_offer_id) as { body: string } | undefined;
    const offer = offerRow ? (JSON.parse(offerRow.body) as Offer) : undefined;
    const searchable = product.status === 'active' && offer?.status === 'active';
    // The vocabulary counts searchable products per word; a change moves the counts.
    if (previous && !searchable) this.countWords(product, -1);
    if (!previous && searchable) this.countWords(product, +1);
    if (!searchable || !offer) return;
    this.db
      .prepare(
        `INSERT INTO docs (rowid, product_id, offer_id, seller_id, category, brand_key, currency, price, available, moq, lead_days,
           ships_from, created_at, valid_until, first_seq, attributes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.rowid, product.productId, offer.offerId, product.sellerId, product.category, product.brand?.toLowerCase() ?? null,
        offer.unitPrice.currency, offer.unitPrice.amount, product.availableQuantity, Math.max(product.minOrderQuantity, offer.minQuantity),
        product.leadTimeDays, product.shipsFrom, product.createdAt, offer.validUntil, row.first_seq, JSON.stringify(lowercaseStrings(product.attributes)),
      );
    const { title, body } = searchableText(product);
    this.db.prepare('INSERT INTO docs_text (rowid, title, body) VALUES (?, ?, ?)').run(row.rowid, title, body);
  }

  private countWords(product: Product, delta: number): void {
    const { title, body } = searchableText(product);
    const words = new Set(surfaceWords(`${title} ${body}`));
    const update = this.db.prepare('INSERT INTO words (word, products) VALUES (?, ?) ON CONFLICT (word) DO UPDATE SET products = products + excluded.products');
    for (const word of words) {
      update.run(word, delta);
      if (this.vocabulary) this.vocabulary.set(word, (this.vocabulary.get(word) ?? 0) + delta);
    }
  }

  /** Surface words of searchable products, with how many products use each. */
  words(): ReadonlyMap<string, number> {
    if (!this.vocabulary) {
      const rows = this.db.prepare('SELECT word, products FROM words WHERE products > 0').all() as { word: string; products: number }[];
      this.vocabulary = new Map(rows.map((row) => [row.word, row.products]));
    }
    return this.vocabulary;
  }

  /** Distinct brands and categories of searchable products (for reading intents). */
  facets(): { brands: string[]; categories: string[] } {
    this.facetCache ??= this.readFacets();
    return this.facetCache;
  }

  private readFacets(): { brands: string[]; categories: string[] } {
    const brands = this.db.prepare('SELECT DISTINCT brand_key AS value FROM docs WHERE brand_key IS NOT NULL').all() as { value: string }[];
    const categories = this.db.prepare('SELECT DISTINCT category AS value FROM docs WHERE category IS NOT NULL').all() as { value: string }[];
    return { brands: brands.map((row) => row.value), categories: categories.map((row) => row.value) };
  }

  /** The filter conditions of a query (on `docs d`), with their parameters. */
  private conditions(query: ReplicaQuery): { where: string[]; params: SQLInputValue[] } {
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
    if (f.minPrice !== undefined) add('d.price >= ?', f.minPrice);
    if (f.maxPrice !== undefined) add('d.price <= ?', f.maxPrice);
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

  /** Whether the query finds anything: the match and the filters, without ranking or sorting. */
  exists(query: ReplicaQuery): boolean {
    const { where, params } = this.conditions(query);
    const expression = matchExpression(query);
    const sql = expression
      ? `SELECT 1 FROM docs_text CROSS JOIN docs d ON d.rowid = docs_text.rowid WHERE docs_text MATCH ? AND ${where.join(' AND ')} LIMIT 1`
      : `SELECT 1 FROM docs d WHERE ${where.join(' AND ')} LIMIT 1`;
    return this.db.prepare(sql).get(...(expression ? [expression] : []), ...params) !== undefined;
  }

  search(query: ReplicaQuery): { hits: ReplicaHit[]; more: boolean } {
    const { where, params } = this.conditions(query);
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
    const candidates = text ? this.matchCount(expression) : f.category !== undefined ? this.categoryCount(f.category) : 0;
    type Row = { rowid: number; offerId: string; rank: number };
    const select = (from: string, rank: string, first: { clause: string; value: SQLInputValue } | undefined, rowLimit: number) =>
      this.db
        .prepare(`SELECT d.rowid AS rowid, d.offer_id AS offerId, ${rank} AS rank FROM ${from} WHERE ${[...(first ? [first.clause] : []), ...where].join(' AND ')} ORDER BY ${order} LIMIT ?`)
        .all(...(first ? [first.value] : []), ...params, rowLimit) as Row[];
    let rows: Row[] | undefined;
    if (candidates > WALK_SORT_INDEX_ABOVE && sortIndex !== undefined) {
      const inMatch = text ? { clause: '+d.rowid IN (SELECT rowid FROM docs_text WHERE docs_text MATCH ?)', value: expression } : undefined;
      rows = select(`docs d INDEXED BY ${sortIndex}`, '0', inMatch, limit);
    } else if (candidates > RANK_MATCH_FIRST_ABOVE && text && query.sort === 'relevance' && !filtered(f)) {
      const best = (limit + (query.exclude?.length ?? 0)) * 4;
      const top = `(SELECT rowid, ${score} AS rank FROM docs_text WHERE docs_text MATCH ? ORDER BY rank, rowid LIMIT ${best}) m CROSS JOIN docs d ON d.rowid = m.rowid`;
      rows = this.db
        .prepare(`SELECT d.rowid AS rowid, d.offer_id AS offerId, m.rank AS rank FROM ${top} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`)
        .all(expression, ...params, limit) as Row[];
      if (rows.length < limit && best < candidates) rows = undefined;
    }
    if (rows === undefined) {
      rows = text
        ? select('docs_text CROSS JOIN docs d ON d.rowid = docs_text.rowid', score, { clause: 'docs_text MATCH ?', value: expression }, limit)
        : select(f.category !== undefined ? 'docs d INDEXED BY docs_category' : 'docs d', '0', undefined, limit);
    }
    const productBody = this.db.prepare('SELECT body FROM products WHERE rowid = ?');
    const offerBody = this.db.prepare('SELECT body FROM offers WHERE offer_id = ?');
    const hits = rows.slice(0, query.limit).map((row) => {
      const { standingOfferId: _standing, ...product } = JSON.parse((productBody.get(row.rowid) as { body: string }).body) as IndexedProduct;
      const offer = JSON.parse((offerBody.get(row.offerId) as { body: string }).body) as Offer;
      return { product, offer, score: row.rank === 0 ? 0 : Math.round(-row.rank * 10_000) / 10_000 };
    });
    return { hits, more: rows.length > query.limit };
  }

  /** Searchable products in a category or below it (from the category index alone). */
  private categoryCount(category: string): number {
    return (
      this.db.prepare('SELECT count(*) AS n FROM docs WHERE category >= ? AND category < ? AND (category = ? OR category > ?)').get(category, `${category}0`, category, `${category}/`) as { n: number }
    ).n;
  }

  /** Products matching a full-text expression (cheap: no ranking, no rows). */
  private matchCount(expression: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM docs_text WHERE docs_text MATCH ?').get(expression) as { n: number }).n;
  }

  /** The categories with the most searchable products holding any of these terms, most first (counted over the first 1,000 matches, so a common word costs no more than a rare one). */
  categoriesHolding(terms: readonly ReplicaTerm[], limit: number, now: string): string[] {
    const expression = matchExpression({ words: terms, match: 'any' });
    if (expression === '') return [];
    const rows = this.db
      .prepare(
        'SELECT category, count(*) AS n FROM (SELECT d.category AS category FROM docs_text CROSS JOIN docs d ON d.rowid = docs_text.rowid ' +
          'WHERE docs_text MATCH ? AND d.category IS NOT NULL AND (d.valid_until IS NULL OR d.valid_until > ?) LIMIT 1000) GROUP BY category ORDER BY n DESC, category LIMIT ?',
      )
      .all(expression, now, limit) as { category: string }[];
    return rows.map((row) => row.category);
  }

  /** The top-level categories with the most searchable products, most first. */
  largestCategories(limit: number): string[] {
    const rows = this.db
      .prepare(
        "SELECT CASE WHEN instr(category, '/') > 0 THEN substr(category, 1, instr(category, '/') - 1) ELSE category END AS top, count(*) AS n " +
          'FROM docs WHERE category IS NOT NULL GROUP BY top ORDER BY n DESC, top LIMIT ?',
      )
      .all(limit) as { top: string }[];
    return rows.map((row) => row.top);
  }

  /** Whether some searchable product's text holds these words in a row. */
  hasPhrase(words: readonly string[]): boolean {
    const expression = phrase(words.join(' '));
    if (expression === '""') return false;
    return this.db.prepare('SELECT 1 FROM docs_text WHERE docs_text MATCH ? LIMIT 1').get(expression) !== undefined;
  }

  /** For each term (as in ReplicaQuery), which of these products hold it. */
  holding(terms: readonly ReplicaTerm[], productIds: readonly string[]): Set<string>[] {
    if (productIds.length === 0 || terms.length === 0) return terms.map(() => new Set());
    // A product's searchable row has its product row's rowid; FTS5 then tests each rowid directly
    // instead of walking a common word's whole posting list.
    const rows = this.db.prepare('SELECT rowid, product_id AS id FROM products WHERE product_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(productIds)) as { rowid: number; id: string }[];
    const idOf = new Map(rows.map((row) => [row.rowid, row.id]));
    const statement = this.db.prepare(`SELECT rowid FROM docs_text WHERE docs_text MATCH ? AND rowid IN (${rows.map(() => '?').join(', ')})`);
    return terms.map((term) => {
      const expression = matchExpression({ words: [term] });
      if (expression === '' || rows.length === 0) return new Set<string>();
      return new Set((statement.all(expression, ...rows.map((row) => row.rowid)) as { rowid: number }[]).map((row) => idOf.get(row.rowid) as string));
    });
  }

  /** Writes a compact copy of the replica to `file` (for a snapshot). */
  copyTo(file: string): void {
    rmSync(file, { force: true });
    this.db.prepare('VACUUM INTO ?').run(file);
  }
}

/**
 * Whether a query narrows the products beyond the text: then ranking the match alone first would
 * often keep too few and need the full ranking after it (twice the work), so the full ranking runs at once.
 */
function filtered(filters: ReplicaFilters): boolean {
  return Object.entries(filters).some(([name, value]) => value !== undefined && !(name === 'attributes' && Object.keys(value as object).length === 0));
}

/** Sorts that an index serves in order (their ORDER BY above matches the index). */
const SORT_INDEXES: Partial<Record<ReplicaQuery['sort'], string>> = { price_asc: 'docs_by_price', price_desc: 'docs_by_price', newest: 'docs_by_created' };
/**
 * Above this many candidates, a sorted search walks its sort index instead of sorting every candidate.
 * High, because prices and dates correlate with categories and words: the walk can pass many rows first.
 */
const WALK_SORT_INDEX_ABOVE = 10_000;
/** Above this many matches, a relevance search ranks the match alone first and filters the best few pages. */
const RANK_MATCH_FIRST_ABOVE = 2_000;

/** A phrase as FTS5 reads it: its words quoted, in a row. */
function phrase(text: string): string {
  return `"${surfaceWords(text).join(' ')}"`;
}

/**
 * FTS5 query: every word quoted (no operators from user text); all terms required (or any), a term of
 * alternatives as an OR group, the last plain word optionally a prefix, and ruled-out words after NOT.
 */
function matchExpression(query: Pick<ReplicaQuery, 'words' | 'prefixLast' | 'match' | 'not'>): string {
  const parts: string[] = [];
  const last = query.words.length - 1;
  query.words.forEach((term, index) => {
    if (typeof term === 'string') {
      // One token per term: every word is matched on its own, never as a phrase.
      const words = surfaceWords(term);
      words.forEach((word, at) => parts.push(`"${word}"${query.prefixLast && index === last && at === words.length - 1 ? '*' : ''}`));
    } else {
      const alternatives = [...new Set(term.map(phrase).filter((form) => form !== '""'))];
      if (alternatives.length > 0) parts.push(alternatives.length === 1 ? (alternatives[0] as string) : `(${alternatives.join(' OR ')})`);
    }
  });
  if (parts.length === 0) return '';
  const positive = parts.length === 1 ? (parts[0] as string) : `(${parts.join(query.match === 'any' ? ' OR ' : ' AND ')})`;
  const not = (query.not ?? []).map(phrase).filter((form) => form !== '""');
  return not.length === 0 ? positive : `${positive} NOT (${not.join(' OR ')})`;
}

function lowercaseStrings(attributes: Record<string, string | number | boolean>): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, typeof value === 'string' ? value.toLowerCase() : value]));
}
