// Searching the catalog: structured filters (POST /v1/search) and plain-language intents
// (POST /v1/search-intent), both over this instance's index (shared/domain/search-index.ts).
// Paging: a cursor carries the log sequence of the first page and the ids already returned, so the
// pages of one result set never repeat an item and never skip one that still matches, however the
// catalog changes meanwhile; products added after the first page stay out of that result set.
import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { surfaceWords, type ReplicaFilters, type ReplicaHit, type SearchReplica } from '../data/search-replica.ts';
import { fail } from '../failures.ts';
import type { SearchFilters, SearchRequest, SearchSort } from '../schemas/search.ts';
import { currentSearchIndex } from './search-index.ts';
import { knownWord, parseIntent, type Interpretation } from './search-intent.ts';

export const DEFAULT_SEARCH_LIMIT = 20;
/** Items one result set can page through; past them, narrow the search (docs/search.md). */
export const SEARCH_MAX_DEPTH = 2_000;
const ULID_LENGTH = 26;

interface CursorState {
  /** Log sequence of the first page. */
  seq: number;
  /** Ids returned so far. */
  returned: string[];
  /** Which relaxation of an intent the first page used (0: none). */
  step: number;
}

function scopeOf(callerId: string, kind: string, request: unknown): string {
  return `search:${callerId}:${kind}:${createHash('sha256').update(JSON.stringify(request)).digest('base64url')}`;
}

function readCursor(scope: string, cursor: string | undefined): CursorState | undefined {
  const key = decodeCursor(scope, cursor);
  if (!key) return undefined;
  const { s, r, m } = key as { s?: unknown; r?: unknown; m?: unknown };
  if (typeof s !== 'number' || typeof r !== 'string' || r.length % ULID_LENGTH !== 0) throw fail.invalid('The cursor is not valid for this search', [{ path: 'cursor', message: 'Pass the nextCursor of the previous page of this same search, unchanged' }]);
  const returned: string[] = [];
  for (let offset = 0; offset < r.length; offset += ULID_LENGTH) returned.push(`prd_${r.slice(offset, offset + ULID_LENGTH)}`);
  return { seq: s, returned, step: typeof m === 'number' ? m : 0 };
}

function nextCursor(scope: string, state: CursorState, hits: readonly ReplicaHit[], more: boolean): string | null {
  const returned = [...state.returned, ...hits.map((hit) => hit.product.productId)];
  if (!more || returned.length >= SEARCH_MAX_DEPTH) return null;
  return encodeCursor(scope, { s: state.seq, r: returned.map((id) => id.slice(4)).join(''), m: state.step });
}

/** Words of a typed query as the index knows them (typos corrected; unknown words kept, so they match nothing). */
function queryWords(query: string | undefined, index: SearchReplica): string[] {
  const vocabulary = index.words();
  return [...new Set(surfaceWords(query ?? '').map((word) => knownWord(word, vocabulary) ?? word))];
}

function replicaFilters(filters: SearchFilters | undefined, quantity?: number | null): ReplicaFilters {
  return { ...(filters ?? {}), ...(quantity ? { quantity } : {}) };
}

export async function searchCatalog(callerId: string, request: SearchRequest, now = new Date()) {
  const index = await currentSearchIndex();
  const { cursor, ...rest } = request;
  const scope = scopeOf(callerId, 'structured', rest);
  const state = readCursor(scope, cursor) ?? { seq: index.seq, returned: [], step: 0 };
  const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
  const typed = surfaceWords(request.query ?? '');
  const { hits, more } = index.search({
    words: queryWords(request.query, index),
    // A last word that is not a whole word of the catalog is taken as typed in part ("glo").
    prefixLast: typed.length > 0 && !index.words().has(typed.at(-1) as string),
    filters: replicaFilters(request.filters),
    sort: request.sort ?? 'relevance',
    limit: Math.min(limit, SEARCH_MAX_DEPTH - state.returned.length),
    exclude: state.returned,
    upToSeq: state.seq,
    now: now.toISOString(),
  });
  return { items: hits, nextCursor: nextCursor(scope, state, hits, more) };
}

/**
 * An intent is read, then searched as understood. When that finds nothing, the search is relaxed in
 * steps, and the interpretation says what was finally applied: first without a category filter
 * (its word stays a keyword), then without its rarest keyword, one at a time and at most two (the most
 * specific words are the likeliest to rule everything out), and last matching any of the keywords instead of all.
 */
export async function searchIntent(callerId: string, request: { intent: string; limit?: number | undefined; cursor?: string | undefined }, now = new Date()) {
  const index = await currentSearchIndex();
  const facets = index.facets();
  const parsed = parseIntent(request.intent, { brands: facets.brands, categories: facets.categories, vocabulary: index.words() });
  const scope = scopeOf(callerId, 'intent', { intent: request.intent, limit: request.limit });
  const state = readCursor(scope, request.cursor);
  const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
  const steps = relaxations(parsed, index.words());
  const queryOf = (step: number, seq: number, exclude: readonly string[]) => {
    const attempt = steps[Math.min(step, steps.length - 1)] as Attempt;
    const query = {
      words: attempt.interpretation.keywords,
      filters: replicaFilters(attempt.interpretation.filters, attempt.interpretation.quantity),
      sort: attempt.interpretation.sort,
      match: attempt.match,
      limit: Math.min(limit, SEARCH_MAX_DEPTH - exclude.length),
      exclude,
      upToSeq: seq,
      now: now.toISOString(),
    };
    return { attempt, query };
  };
  const run = (step: number, seq: number, exclude: readonly string[]) => {
    const { attempt, query } = queryOf(step, seq, exclude);
    return { attempt, ...index.search(query) };
  };
  if (state) {
    const page = run(state.step, state.seq, state.returned);
    return { items: page.hits, nextCursor: nextCursor(scope, state, page.hits, page.more), interpretation: page.attempt.interpretation };
  }
  // The first step that finds anything (an unranked existence test: cheap when it does, and no ranking
  // is spent on steps that find nothing); the last step is searched whatever it finds.
  let step = 0;
  while (step < steps.length - 1 && !index.exists(queryOf(step, index.seq, []).query)) step += 1;
  const page = run(step, index.seq, []);
  const first: CursorState = { seq: index.seq, returned: [], step };
  return { items: page.hits, nextCursor: nextCursor(scope, first, page.hits, page.more), interpretation: page.attempt.interpretation };
}

const MAX_DROPPED_KEYWORDS = 2;

export interface Attempt {
  interpretation: Interpretation;
  match: 'all' | 'any';
}

export function relaxations(parsed: Interpretation, vocabulary: ReadonlyMap<string, number>): Attempt[] {
  const attempts: Attempt[] = [{ interpretation: parsed, match: 'all' }];
  let current = parsed;
  if (current.filters.category !== undefined && current.keywords.length > 0) {
    const { category, ...filters } = current.filters;
    const word = category.split('/').at(-1) as string;
    current = { ...current, filters, keywords: [...current.keywords, word] };
    attempts.push({ interpretation: current, match: 'all' });
  }
  const all = current;
  let kept = current.keywords;
  // At most two words are dropped: each step is a full search, and past two the intent is mostly gone.
  while (kept.length > 1 && all.keywords.length - kept.length < MAX_DROPPED_KEYWORDS) {
    const rarest = kept.reduce((a, b) => ((vocabulary.get(b) ?? 0) < (vocabulary.get(a) ?? 0) ? b : a));
    kept = kept.filter((word) => word !== rarest);
    attempts.push({ interpretation: { ...current, keywords: kept, unparsed: [...current.unparsed, ...all.keywords.filter((word) => !kept.includes(word))] }, match: 'all' });
  }
  if (all.keywords.length > 1) attempts.push({ interpretation: all, match: 'any' });
  return attempts;
}

export type { SearchSort };
