// The replica's tables: the public images of products and offers, one filter-and-sort row per
// searchable product (its pack size among them, for prices per piece), its full-text row, and the
// vocabulary for typo correction (docs/search.md).
import { DatabaseSync } from 'node:sqlite';

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
    valid_until TEXT, first_seq INTEGER NOT NULL, attributes TEXT NOT NULL, pack_size INTEGER NOT NULL DEFAULT 1);
  CREATE INDEX IF NOT EXISTS docs_by_price ON docs (currency, price, product_id);
  CREATE INDEX IF NOT EXISTS docs_by_created ON docs (created_at, product_id);
  CREATE INDEX IF NOT EXISTS docs_category ON docs (category);
  CREATE INDEX IF NOT EXISTS docs_seller ON docs (seller_id);
  CREATE VIRTUAL TABLE IF NOT EXISTS docs_text USING fts5 (
    title, body, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
  -- Surface words with the number of searchable products that use them: for typo correction.
  CREATE TABLE IF NOT EXISTS words (word TEXT PRIMARY KEY, products INTEGER NOT NULL) WITHOUT ROWID;
`;

/** Opens (or creates) a replica database in `file` with its tables. */
export function openReplicaDatabase(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  // A replica is rebuilt from the snapshot and the log after any crash: no journal, no fsync.
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;');
  db.exec(SCHEMA);
  // A snapshot written before pack sizes existed: every product in it is sold by the piece.
  const columns = db.prepare('PRAGMA table_info(docs)').all() as { name: string }[];
  if (!columns.some((column) => column.name === 'pack_size')) db.exec('ALTER TABLE docs ADD COLUMN pack_size INTEGER NOT NULL DEFAULT 1');
  return db;
}

/** The last log sequence applied (0 for an empty replica). */
export function appliedSeq(db: DatabaseSync): number {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'seq'").get() as { value: number } | undefined;
  return row?.value ?? 0;
}
