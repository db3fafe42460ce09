// Searching the catalog: structured filters (POST /v1/search) and plain-language intents
// (POST /v1/search-intent), both over this instance's index (shared/domain/search-index.ts).
// Paging: a cursor carries the log sequence of the first page and the ids already returned, so the
// pages of one result set never repeat an item and never skip one that still matches, however the
// catalog changes meanwhile; products added after the first page stay out of that result set.
import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { surfaceWords, type ReplicaFilters, type ReplicaHit, type ReplicaQuery, type SearchReplica } from '../data/search-replica/index.ts';
import { searchWords, type SearchWords } from '../data/search-words.ts';
import { fail } from '../failures.ts';
import { OfferCompact, ProductCompact, type Offer, type Product } from '../schemas/catalog.ts';
import { MAX_SUGGESTIONS, type SearchFilters, type SearchRequest, type SearchSort } from '../schemas/search.ts';
import { currentSearchIndex } from './search-index.ts';
import { queryWord } from './intent/words.ts';
import { planIntent, suggestionsFor, itemChecks, notesFor, type IntentPlan } from './search-plan.ts';
import { readIntent, type IntentLexicon } from './search-intent.ts';

export const DEFAULT_SEARCH_LIMIT = 20;
/** Items one result set can page through; past them, narrow the search (docs/search.md). */
export const SEARCH_MAX_DEPTH = 2_000;
const ULID_LENGTH = 26;

interface CursorState {
  /** Log sequence of the first page. */
  seq: number;
  /** Ids returned so far. */
  returned: string[];
  /** An intent's plan on its first page: the terms dropped (bits) and whether the category was. */
  plan: number;
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
  return { seq: s, returned, plan: typeof m === 'number' ? m : 0 };
}

function nextCursor(scope: string, state: CursorState, hits: readonly ReplicaHit[], more: boolean): string | null {
  const returned = [...state.returned, ...hits.map((hit) => hit.product.productId)];
  if (!more || returned.length >= SEARCH_MAX_DEPTH) return null;
  return encodeCursor(scope, { s: state.seq, r: returned.map((id) => id.slice(4)).join(''), m: state.plan });
}

const only = <T extends object>(record: T, shape: object): Partial<T> => Object.fromEntries(Object.entries(record).filter(([name]) => name in shape)) as Partial<T>;

/**
 * A search item as `fields` asks for it: whole (the default), or compact — without what choosing an
 * offer does not need (descriptions, image URLs, timestamps, ids and states repeated): docs/decisions/search-fields.md.
 */
export function shapeItem<T extends { product: Product; offer: Offer }>(item: T, fields: 'full' | 'compact' | undefined): T {
  if (fields !== 'compact') return item;
  return { ...item, product: only(item.product, ProductCompact.shape), offer: only(item.offer, OfferCompact.shape) };
}

function replicaFilters(filters: SearchFilters | undefined, quantity?: number | null): ReplicaFilters {
  return { ...(filters ?? {}), ...(quantity ? { quantity } : {}) };
}

/** The lexicon an intent is read with: the index's brands, categories and words, and the English and country words. */
export function intentLexicon(index: SearchReplica, words: SearchWords): IntentLexicon {
  const facets = index.facets();
  return {
    brands: facets.brands,
    categories: facets.categories,
    vocabulary: index.words(),
    ...words,
    hasPhrase: (phrase) => index.hasPhrase(phrase),
    hasAll: (words) => index.exists({ words, filters: {}, sort: 'relevance', limit: 1, now: new Date().toISOString() }),
  };
}

export async function searchCatalog(callerId: string, request: SearchRequest, now = new Date()) {
  const index = await currentSearchIndex();
  const { english } = searchWords();
  // How much of each item is shown is no part of the search: a cursor serves either.
  const { cursor, fields: _fields, ...rest } = request;
  const scope = scopeOf(callerId, 'structured', rest);
  const state = readCursor(scope, cursor) ?? { seq: index.seq, returned: [], plan: 0 };
  const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
  const typed = surfaceWords(request.query ?? '');
  const vocabulary = index.words();
  const words = [...new Set(typed.map((word) => queryWord(word, vocabulary, english)))];
  const filters = replicaFilters(request.filters);
  const { hits, more } = index.search({
    words,
    ...(request.exclude ? { not: request.exclude } : {}),
    // A last word that is not a whole word of the catalog is taken as typed in part ("glo").
    prefixLast: typed.length > 0 && !vocabulary.has(typed.at(-1) as string),
    filters,
    sort: request.sort ?? 'relevance',
    limit: Math.min(limit, SEARCH_MAX_DEPTH - state.returned.length),
    exclude: state.returned,
    upToSeq: state.seq,
    now: now.toISOString(),
  });
  // Every word is required by the query itself, so each item holds them all; filters are checked on the item.
  const checks = itemChecks(index, hits, words.map((word) => ({ word, forms: [word], required: true })), filters, {});
  return { items: hits.map((hit, at) => shapeItem({ ...hit, ...(checks[at] as ReturnType<typeof itemChecks>[number]) }, request.fields)), nextCursor: nextCursor(scope, state, hits, more) };
}

/** One page of an intent's answer over `index`: what the endpoint returns, and its plan (for paging and evaluation). */
export function answerIntent(
  index: SearchReplica,
  lexicon: IntentLexicon,
  intent: string,
  options: { limit: number; now: Date; state?: { seq: number; returned: readonly string[]; plan: number } },
) {
  const reading = readIntent(intent, lexicon);
  const plan: IntentPlan = planIntent(reading, index, lexicon, options.now, options.state?.plan);
  const query: ReplicaQuery = {
    words: plan.kept.map((term) => term.forms),
    not: reading.excluded,
    filters: plan.filters,
    sort: reading.sort,
    limit: Math.min(options.limit, SEARCH_MAX_DEPTH - (options.state?.returned.length ?? 0)),
    exclude: options.state?.returned ?? [],
    ...(options.state ? { upToSeq: options.state.seq } : {}),
    now: options.now.toISOString(),
  };
  const { hits, more } = plan.empty ? { hits: [], more: false } : index.search(query);
  const checks = itemChecks(index, hits, reading.terms.map((term) => ({ word: term.word, forms: term.forms, required: plan.kept.includes(term) })), plan.filters, plan.relaxedFilters);
  const { quantity: _quantity, ...filters } = plan.filters;
  const interpretation = {
    keywords: reading.terms.map((term) => term.word),
    quantity: reading.quantity,
    filters: Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)),
    sort: reading.sort,
    excluded: reading.excluded,
    budget: reading.budget,
    corrections: reading.corrections,
    // Nothing is relaxed in an empty answer: nothing was found by dropping anything.
    relaxed: plan.empty ? { keywords: [], filters: {} } : { keywords: plan.dropped.map((term) => term.word), filters: plan.relaxedFilters },
    unparsed: reading.unparsed,
    notes: notesFor(plan, reading, hits),
  };
  return {
    items: hits.map((hit, at) => ({ ...hit, ...(checks[at] as ReturnType<typeof itemChecks>[number]) })),
    more,
    interpretation,
    suggestions: hits.length === 0 && !options.state ? suggestionsFor(plan, reading, index, lexicon, options.now).slice(0, MAX_SUGGESTIONS) : [],
    plan,
  };
}

/**
 * An intent is read, then searched as understood, relaxed only where that is safe (search-plan.ts):
 * product words no product has together with the rest are dropped, never the main one, and a category
 * guessed from the wording is dropped when it rules everything out; price, origin, lead time, brand and
 * quantity never are. Nothing found: an empty page with suggestions.
 */
export async function searchIntent(callerId: string, request: { intent: string; limit?: number | undefined; cursor?: string | undefined; fields?: 'full' | 'compact' | undefined }, now = new Date()) {
  const index = await currentSearchIndex();
  const lexicon = intentLexicon(index, searchWords());
  const scope = scopeOf(callerId, 'intent', { intent: request.intent, limit: request.limit });
  const state = readCursor(scope, request.cursor);
  const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
  const answer = answerIntent(index, lexicon, request.intent, { limit, now, ...(state ? { state } : {}) });
  const first: CursorState = state ?? { seq: index.seq, returned: [], plan: answer.plan.code };
  return {
    items: answer.items.map((item) => shapeItem(item, request.fields)),
    nextCursor: nextCursor(scope, first, answer.items, answer.more),
    interpretation: answer.interpretation,
    suggestions: answer.suggestions,
  };
}

export type { SearchSort };
