// A search instance's replica: one SQLite database file (schema.ts) that the change log is applied to
// (writer.ts) and that searches read (queries.ts), with the vocabulary and facets cached between changes.
import type { DatabaseSync } from 'node:sqlite';
import type { ReplicaTerm } from './match.ts';
import {
  categoriesHolding,
  exists,
  hasPhrase,
  holding,
  largestCategories,
  readFacets,
  readVocabulary,
  search,
  searchableCount,
  sellersMatching,
  type ReplicaHit,
  type ReplicaQuery,
} from './queries.ts';
import { appliedSeq, openReplicaDatabase } from './schema.ts';
import { applyChanges, writeCopy, type SearchChange } from './writer.ts';

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
    this.db = openReplicaDatabase(file);
  }

  /** The last log sequence applied (0 for an empty replica). */
  get seq(): number {
    return appliedSeq(this.db);
  }

  get size(): number {
    return searchableCount(this.db);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** Applies a log entry's changes in one transaction and records its sequence. */
  apply(seq: number, changes: readonly SearchChange[]): void {
    try {
      applyChanges(this.db, seq, changes, this.vocabulary);
    } catch (error) {
      this.vocabulary = undefined;
      throw error;
    }
    this.facetCache = undefined;
  }

  /** Surface words of searchable products, with how many products use each. */
  words(): ReadonlyMap<string, number> {
    this.vocabulary ??= readVocabulary(this.db);
    return this.vocabulary;
  }

  /** Distinct brands and categories of searchable products (for reading intents). */
  facets(): { brands: string[]; categories: string[] } {
    this.facetCache ??= readFacets(this.db);
    return this.facetCache;
  }

  /** Whether the query finds anything: the match and the filters, without ranking or sorting. */
  exists(query: ReplicaQuery): boolean {
    return exists(this.db, query);
  }

  search(query: ReplicaQuery): { hits: ReplicaHit[]; more: boolean } {
    return search(this.db, query);
  }

  /** The sellers with at least one searchable product the query finds (whom a request for quotes reaches). */
  sellersMatching(query: Pick<ReplicaQuery, 'words' | 'not' | 'filters' | 'now'>): string[] {
    return sellersMatching(this.db, query);
  }

  /** The categories with the most searchable products holding any of these terms, most first (counted over the first 1,000 matches). */
  categoriesHolding(terms: readonly ReplicaTerm[], limit: number, now: string): string[] {
    return categoriesHolding(this.db, terms, limit, now);
  }

  /** The top-level categories with the most searchable products, most first. */
  largestCategories(limit: number): string[] {
    return largestCategories(this.db, limit);
  }

  /** Whether some searchable product's text holds these words in a row. */
  hasPhrase(words: readonly string[]): boolean {
    return hasPhrase(this.db, words);
  }

  /** For each term (as in ReplicaQuery), which of these products hold it. */
  holding(terms: readonly ReplicaTerm[], productIds: readonly string[]): Set<string>[] {
    return holding(this.db, terms, productIds);
  }

  /** Writes a compact copy of the replica to `file` (for a snapshot). */
  copyTo(file: string): void {
    writeCopy(this.db, file);
  }
}
