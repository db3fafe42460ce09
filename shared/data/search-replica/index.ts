// The search engine: a replica of the searchable catalog in an embedded SQLite database (node:sqlite)
// with an FTS5 full-text index — BM25 ranking, Porter stemming, prefix queries — beside plain columns
// for filters and sorts. Each search function instance holds one, loaded from the latest snapshot in
// S3 and kept current from the change log (shared/data/search-log.ts). Why SQLite FTS5 and not a
// JavaScript engine: docs/dependencies.md; the design: docs/search.md.
//
// The parts: files.ts (where replica files live), schema.ts (the tables), text.ts (a product's
// searchable text, surface words), writer.ts (applying the log), match.ts (FTS5 match expressions),
// queries.ts (the query planner and lookups), replica.ts (the replica an instance holds).
export { newReplicaFile } from './files.ts';
export type { ReplicaTerm } from './match.ts';
export type { ReplicaFilters, ReplicaHit, ReplicaQuery } from './queries.ts';
export { SearchReplica } from './replica.ts';
export { surfaceWords } from './text.ts';
export type { IndexedProduct, SearchChange } from './writer.ts';
