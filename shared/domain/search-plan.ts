// How an intent is searched once read, and what an item and an empty answer say about it.
//
// The rules (docs/search.md, "Honest results"):
// - The head of the request (its main product word, search-intent.ts headTerm) must match every item.
//   No product has it → nothing is returned, with suggestions; never filler.
// - Other product words are kept while some product has them all together with the head, whatever the
//   filters; those no product has with the rest are dropped. Words are never dropped to satisfy a
//   filter: a word the catalog does have says what the product is ("nitrile gloves from Germany" never
//   becomes latex gloves from Germany).
// - When the filters rule out every such product, the fewest are dropped, in this order: a category
//   guessed from the wording, origin, lead time, brand, the price bounds, then the currency. The
//   quantity never is (an item that cannot serve it cannot be ordered). What was dropped is in
//   interpretation.relaxed and, per item, in `relaxed` (checked on the item).
// - Nothing found → suggestions, each checked against the catalog: the filter whose loosening finds
//   something, the word whose dropping does, catalog words near the ones that matched nothing, categories.
import { distance } from 'fastest-levenshtein';
import type { ReplicaFilters, ReplicaHit, ReplicaTerm, SearchReplica } from '../data/search-replica/index.ts';
import { minorToMajor } from '../schemas/money.ts';
import type { SearchFilters } from '../schemas/search.ts';
import { formKnown, tokens } from './intent/reading.ts';
import { headTerm, type IntentLexicon, type Reading, type Term } from './search-intent.ts';

export interface IntentPlan {
  head: Term | undefined;
  /** Terms searched: every one is required. */
  kept: Term[];
  /** Terms dropped: no product has them together with the rest. */
  dropped: Term[];
  /** Filters applied (the quantity among them). */
  filters: ReplicaFilters;
  /** Filters dropped to find anything, with their values. */
  relaxedFilters: Partial<SearchFilters>;
  /** Nothing to return: no product has the head ('words'), or none within the filters that are never dropped ('filters'). */
  empty: boolean;
  reason: 'words' | 'filters' | null;
  /** The plan as a number, for a cursor: bit i = term i dropped; bits 24+ = filter groups dropped. */
  code: number;
}

/** Filters that may be dropped, in the order they are: each group's fields go together. */
const RELAXABLE: readonly (readonly (keyof SearchFilters)[])[] = [['category'], ['shipsFrom'], ['maxLeadTimeDays'], ['brand'], ['minPrice', 'maxPrice', 'pricePer'], ['currency']];
const GROUP_BIT = 24;
const PRICE = 4;
const CURRENCY = 5;
/** Existence tests spent on finding which words to drop, and which filters, at most (each is one unranked LIMIT 1 query). */
const MAX_WORD_TESTS = 16;
const MAX_FILTER_TESTS = 16;

/** Whether some product holds the term: every word of some form is a catalog word, and a phrase occurs as one. */
function present(term: Term, lexicon: IntentLexicon): boolean {
  if (!term.known) return false;
  return term.forms.some((form) => {
    const words = tokens(form);
    return formKnown(form, lexicon.vocabulary) && (words.length === 1 || lexicon.hasPhrase(words));
  });
}

function withQuantity(reading: Reading): ReplicaFilters {
  return { ...reading.filters, ...(reading.quantity ? { quantity: reading.quantity } : {}) };
}

/** Subsets of the groups present, fewest first, in RELAXABLE's order (the category, a guess, always goes first). */
function relaxations(groups: readonly number[]): number[][] {
  const subsets: number[][] = [];
  for (let size = 1; size <= groups.length; size += 1) {
    const build = (from: number, chosen: number[]) => {
      if (chosen.length === size) return void subsets.push(chosen);
      for (let at = from; at < groups.length; at += 1) build(at + 1, [...chosen, groups[at] as number]);
    };
    build(0, []);
  }
  const hasCategory = groups[0] === 0;
  const pricedBounds = groups.includes(PRICE);
  // A price bound is never compared without its currency: the currency goes only with the bounds.
  return subsets.filter((subset) => (!hasCategory || subset.includes(0)) && (!pricedBounds || !subset.includes(CURRENCY) || subset.includes(PRICE)));
}

export function planIntent(reading: Reading, index: SearchReplica, lexicon: IntentLexicon, now: Date, code?: number): IntentPlan {
  const terms = reading.terms;
  const head = headTerm(terms, lexicon.qualifiers);
  const stated = withQuantity(reading);
  const exists = (kept: readonly Term[], filters: ReplicaFilters) =>
    index.exists({ words: kept.map((term) => term.forms), not: reading.excluded, filters, sort: 'relevance', limit: 1, now: now.toISOString() });
  const without = (groups: readonly number[]) => {
    const names = new Set(groups.flatMap((group) => RELAXABLE[group] as readonly string[]));
    const kept = Object.fromEntries(Object.entries(stated).filter(([name]) => !names.has(name))) as ReplicaFilters;
    const dropped = Object.fromEntries(Object.entries(stated).filter(([name]) => names.has(name))) as Partial<SearchFilters>;
    return { kept, dropped };
  };
  const plan = (kept: Term[], groups: readonly number[], empty: IntentPlan['reason'] = null): IntentPlan => {
    const dropped = terms.filter((term) => !kept.includes(term));
    const filters = without(groups);
    // A bound per piece differs from one per unit only for products sold in packs: where none has the
    // words within the other filters kept, or nothing is found, it is the plain bound and is shown as one.
    const { minPrice: _min, maxPrice: _max, pricePer: _per, ...others } = filters.kept;
    if (stated.pricePer === 'piece' && (empty !== null || !exists(kept, { ...others, packed: true }))) {
      delete filters.kept.pricePer;
      delete filters.dropped.pricePer;
    }
    const bits = dropped.reduce((sum, term) => sum | (terms.indexOf(term) < GROUP_BIT ? 1 << terms.indexOf(term) : 0), 0);
    return {
      head, kept, dropped,
      filters: filters.kept,
      relaxedFilters: filters.dropped,
      empty: empty !== null, reason: empty,
      code: groups.reduce((sum, group) => sum | (1 << (GROUP_BIT + group)), bits),
    };
  };
  // A later page: the first page's plan, as it was.
  if (code !== undefined) {
    const groups = RELAXABLE.map((_group, at) => at).filter((at) => (code & (1 << (GROUP_BIT + at))) !== 0);
    return plan(terms.filter((_term, at) => at >= GROUP_BIT || (code & (1 << at)) === 0), groups);
  }

  if (head && !present(head, lexicon)) return plan(terms.filter((term) => present(term, lexicon)), [], 'words');
  // "toilet paper", "desk lamp": an English noun the catalog lacks, right before the head, names another product.
  if (head && compoundOf(head, terms, lexicon).length > 0) return plan(terms.filter((term) => present(term, lexicon)), [], 'words');
  let kept = terms.filter((term) => present(term, lexicon));
  if (terms.length > 0 && kept.length === 0) return plan([], [], 'words');

  // Words no product has together: drop the fewest, never the head; describing words first, then the commonest.
  if (kept.length > 1 && !exists(kept, {})) {
    // A word that names a kind of product the catalog has ("coffee" in "coffee machine") is never
    // dropped from the head's phrase: without it, the request would be for another product.
    const kinds = productKinds(lexicon);
    const names = (term: Term) => term.forms.some((form) => tokens(form).some((word) => kinds.has(word) || kinds.has(word.replace(/e?s$/, ''))));
    // Nor is a noun right before the head ("marker" in "marker pens", "hammer" in "hammer drill"): it
    // says which product the head is. Describing words and materials ("rubber gloves") may go.
    const compound = head ? nounsBefore(head, kept, lexicon.qualifiers) : [];
    const droppable = kept
      .filter((term) => term !== head && !compound.includes(term) && !(head && term.phrase === head.phrase && !term.modifier && names(term)))
      .sort((a, b) => dropOrder(a) - dropOrder(b) || frequency(b, lexicon) - frequency(a, lexicon));
    // A code ("6205") names the product most exactly: two other words go before one code does.
    const codes = (drop: readonly Term[]) => drop.filter((term) => dropOrder(term) === 2).length;
    const options: Term[][] = [...droppable.map((term) => [term]), ...droppable.flatMap((a, i) => droppable.slice(i + 1).map((b) => [a, b]))].sort((a, b) => codes(a) - codes(b));
    let found: Term[] | undefined;
    for (const drop of options.slice(0, MAX_WORD_TESTS)) {
      const candidate = kept.filter((term) => !drop.includes(term));
      if (candidate.length > 0 && exists(candidate, {})) {
        found = candidate;
        break;
      }
    }
    // The head alone, when every other word may go.
    if (!found && head && droppable.length === kept.length - 1) found = [head];
    if (!found || !exists(found, {})) return plan(head ? [head] : [], [], 'words');
    kept = found;
  }
  if (exists(kept, stated)) return plan(kept, []);
  const statedGroups = RELAXABLE.map((group, at) => (group.some((name) => stated[name] !== undefined) ? at : -1)).filter((at) => at >= 0);
  for (const groups of relaxations(statedGroups).slice(0, MAX_FILTER_TESTS)) {
    if (exists(kept, without(groups).kept)) return plan(kept, groups);
  }
  return plan(kept, [], 'filters');
}

const kindsOf = new WeakMap<readonly string[], Set<string>>();
/** The words of the catalog's category paths ("safety", "gloves", "coffee", "stretch", "film"), singular and plural. */
function productKinds(lexicon: IntentLexicon): Set<string> {
  let kinds = kindsOf.get(lexicon.categories);
  if (!kinds) {
    kinds = new Set(lexicon.categories.flatMap((category) => category.split(/[/-]/)).flatMap((word) => [word, word.replace(/e?s$/, '')]));
    kindsOf.set(lexicon.categories, kinds);
  }
  return kinds;
}


/** The plain noun directly before the head in its phrase ("marker" in "marker pens"), unless a describing one. */
function nounsBefore(head: Term, terms: readonly Term[], qualifiers: ReadonlySet<string>): Term[] {
  const before = terms[terms.indexOf(head) - 1];
  return before && before.phrase === head.phrase && !before.modifier && !qualifiers.has(before.word) ? [before] : [];
}

/**
 * The words that make the head a different product: English nouns the catalog lacks, directly before
 * the head in its phrase ("toilet" in "toilet paper"), other than describing words.
 */
export function compoundOf(head: Term, terms: readonly Term[], lexicon: IntentLexicon): Term[] {
  const compound: Term[] = [];
  for (let at = terms.indexOf(head) - 1; at >= 0; at -= 1) {
    const term = terms[at] as Term;
    if (term.phrase !== head.phrase || term.modifier || term.known || lexicon.qualifiers.has(term.word) || !lexicon.english.has(term.word)) break;
    compound.unshift(term);
  }
  // "usb-c charging cables": a catalog word before a verb form ("charging") that products hold with the
  // head says which product this is; the verb form between them only describes it.
  const before = terms[terms.indexOf(head) - compound.length - 1];
  if (compound.length > 0 && compound.every((term) => /ing$/.test(term.word)) && before && before.phrase === head.phrase && before.known && lexicon.hasAll([...tokens(before.forms[0] ?? ''), ...tokens(head.forms[0] ?? '')])) return [];
  return compound;
}

/** Which words go first: describing words and measures, then plain words, then codes ("6205", "m10", "6205-2rs", "en 397"), which name a product most exactly. */
function dropOrder(term: Term): number {
  if (/^[a-z]*\d[a-z\d-]*$/.test(term.word) || /^(?:en|din|iso|astm|ansi|bs|jis|nf|csa) \d/.test(term.word)) return 2;
  return term.modifier ? 0 : 1;
}

function frequency(term: Term, lexicon: IntentLexicon): number {
  return Math.max(0, ...term.forms.flatMap((form) => tokens(form).map((word) => lexicon.vocabulary.get(word) ?? 0)));
}

// ---------------------------------------------------------------- what each item satisfies

type ItemCheck = { matched: { keywords: string[]; filters: string[] }; relaxed: { keywords: string[]; filters: string[] } };

/** Whether an item satisfies one filter (as the engine's SQL does). */
export function satisfies(hit: ReplicaHit, name: string, value: unknown, filters: ReplicaFilters): boolean {
  const { product, offer } = hit;
  const price = offer.unitPrice;
  switch (name) {
    case 'category': {
      const category = value as string;
      return product.category === category || (product.category ?? '').startsWith(`${category}/`);
    }
    case 'sellerId': return product.sellerId === value;
    case 'brand': return (product.brand ?? '').toLowerCase() === String(value).toLowerCase();
    case 'currency': return price.currency === value;
    // Per piece: the price ÷ the pieces in the unit (bound × pieces, no rounding).
    case 'minPrice': return price.currency === filters.currency && price.amount >= (value as number) * (filters.pricePer === 'piece' ? (product.packSize ?? 1) : 1);
    case 'maxPrice': return price.currency === filters.currency && price.amount <= (value as number) * (filters.pricePer === 'piece' ? (product.packSize ?? 1) : 1);
    case 'minAvailableQuantity': return product.availableQuantity >= (value as number);
    case 'shipsFrom': return typeof value === 'string' ? product.shipsFrom === value : (value as string[]).includes(product.shipsFrom ?? '');
    case 'maxLeadTimeDays': return product.leadTimeDays <= (value as number);
    case 'quantity': return product.availableQuantity >= (value as number) && Math.max(product.minOrderQuantity, offer.minQuantity) <= (value as number);
    case 'attributes':
      return Object.entries(value as Record<string, string | number | boolean>).every(([key, wanted]) => {
        const actual = product.attributes[key];
        return typeof wanted === 'string' ? typeof actual === 'string' && actual.toLowerCase() === wanted.toLowerCase() : actual === wanted;
      });
    default: return true;
  }
}

/** What each hit matches and lacks of the request's words and filters, checked on the hit itself. */
export function itemChecks(
  index: SearchReplica,
  hits: readonly ReplicaHit[],
  terms: readonly { word: string; forms: readonly string[]; required: boolean }[],
  filters: ReplicaFilters,
  relaxedFilters: Partial<SearchFilters>,
): ItemCheck[] {
  const ids = hits.map((hit) => hit.product.productId);
  // A term the query required is held by every item it returned; the others (dropped words) are
  // looked up in the index for these items only.
  const looked = terms.filter((term) => !term.required);
  const found = index.holding(looked.map((term): ReplicaTerm => term.forms), ids);
  const holding = terms.map((term) => (term.required ? new Set(ids) : (found[looked.indexOf(term)] as Set<string>)));
  // pricePer says how the price bounds read; it is no filter of its own.
  const applied = Object.entries(filters).filter(([name, value]) => name !== 'pricePer' && value !== undefined && !(typeof value === 'object' && Object.keys(value as object).length === 0));
  const loosened = Object.entries(relaxedFilters).filter(([name, value]) => name !== 'pricePer' && value !== undefined);
  // Dropped price bounds are checked as they were stated: per piece when they said so.
  const bounds: ReplicaFilters = { ...filters, pricePer: filters.pricePer ?? relaxedFilters.pricePer };
  return hits.map((hit) => {
    const check: ItemCheck = { matched: { keywords: [], filters: [] }, relaxed: { keywords: [], filters: [] } };
    terms.forEach((term, at) => (holding[at]?.has(hit.product.productId) ? check.matched : check.relaxed).keywords.push(term.word));
    for (const [name, value] of [...applied, ...loosened]) (satisfies(hit, name, value, bounds) ? check.matched : check.relaxed).filters.push(name);
    return check;
  });
}

// ---------------------------------------------------------------- what to know about the items' prices

export interface SearchNote {
  type: 'currency-relaxed' | 'price-relaxed' | 'price-per-piece';
  message: string;
}

/** The request's price bounds in words ("at most 0.10 EUR a piece"), or '' without any. */
function priceBound(filters: Partial<SearchFilters>, perPiece: boolean): string {
  const { minPrice, maxPrice, currency } = filters;
  if (currency === undefined || (minPrice === undefined && maxPrice === undefined)) return '';
  const money = (amount: number) => `${minorToMajor(amount, currency)} ${currency}`;
  const bound =
    minPrice !== undefined && maxPrice !== undefined ? `between ${minorToMajor(minPrice, currency)} and ${money(maxPrice)}` : maxPrice !== undefined ? `at most ${money(maxPrice)}` : `at least ${money(minPrice as number)}`;
  return `${bound}${perPiece ? ' a piece' : ''}`;
}

/**
 * Sentences about the items' prices that an agent must read before acting on them: items priced in other
 * currencies than the request's (a currency relaxation: never compared across currencies), items outside
 * its price bounds, and bounds compared per piece. Each item's `relaxed` says which of them it lacks.
 */
export function notesFor(plan: IntentPlan, reading: Reading, hits: readonly ReplicaHit[]): SearchNote[] {
  if (plan.empty || hits.length === 0) return [];
  const notes: SearchNote[] = [];
  const stated = reading.filters;
  const perPiece = plan.filters.pricePer === 'piece' || plan.relaxedFilters.pricePer === 'piece';
  const bound = priceBound(stated, perPiece);
  const words = reading.terms.map((term) => term.word).join(' ');
  const what = words ? ` "${words}"` : '';
  const currency = stated.currency;
  const others = [...new Set(hits.map((hit) => hit.offer.unitPrice.currency).filter((code) => code !== currency))].sort();
  if (currency !== undefined && plan.relaxedFilters.currency !== undefined && others.length > 0) {
    const list = others.length === 1 ? others[0] : `${others.slice(0, -1).join(', ')} and ${others.at(-1) as string}`;
    notes.push({
      type: 'currency-relaxed',
      message: `No product priced in ${currency} matches${what}; these items are priced in ${list}${bound ? `, and not held to ${bound}` : ''}: prices in different currencies are never compared, so convert before you compare`,
    });
  } else if (bound && (plan.relaxedFilters.maxPrice !== undefined || plan.relaxedFilters.minPrice !== undefined)) {
    notes.push({ type: 'price-relaxed', message: `No product matches${what} priced ${bound}; these items are shown without that bound, and each outside it says so in relaxed.filters` });
  }
  if (plan.filters.pricePer === 'piece' && bound) {
    notes.push({ type: 'price-per-piece', message: `Prices are compared per piece: each item’s unit price ÷ its packSize is ${bound.replace(/ a piece$/, '')}` });
  }
  return notes;
}

// ---------------------------------------------------------------- suggestions for an empty answer

export interface Suggestion {
  type: 'loosen-filter' | 'drop-keyword' | 'try-keyword' | 'browse-category';
  value: string;
  message: string;
}

/** Filters stated, in groups loosened together (a price bound goes with its currency). */
function filterGroups(filters: ReplicaFilters): { names: string[]; label: string }[] {
  const groups: { names: string[]; label: string }[] = [];
  const describe = (name: string) => `${name} ${JSON.stringify((filters as Record<string, unknown>)[name])}`;
  const prices = (['minPrice', 'maxPrice'] as const).filter((name) => filters[name] !== undefined);
  const perPiece = filters.pricePer === 'piece' ? ['pricePer'] : [];
  if (prices.length > 0) groups.push({ names: [...prices, ...perPiece, 'currency'], label: `${prices.map(describe).join(', ')} ${filters.currency ?? ''}${perPiece.length > 0 ? ' per piece' : ''}`.trim() });
  else if (filters.currency !== undefined) groups.push({ names: ['currency'], label: describe('currency') });
  for (const name of ['shipsFrom', 'maxLeadTimeDays', 'brand', 'quantity', 'category', 'sellerId', 'minAvailableQuantity', 'attributes'] as const) {
    if (filters[name] !== undefined) groups.push({ names: [name], label: describe(name) });
  }
  return groups;
}

/** Catalog words within two edits of a word (the closest first, then the commonest). */
function nearestWords(word: string, vocabulary: ReadonlyMap<string, number>): string[] {
  if (word.length < 4) return [];
  const allowed = word.length >= 6 ? 2 : 1;
  return [...vocabulary]
    .filter(([candidate]) => candidate.length >= 3 && !/\d/.test(candidate) && Math.abs(candidate.length - word.length) <= allowed)
    .map(([candidate, products]) => ({ candidate, products, d: distance(candidate, word) }))
    .filter(({ d, candidate }) => d > 0 && d <= allowed && candidate !== word)
    .sort((a, b) => a.d - b.d || b.products - a.products)
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

export function suggestionsFor(plan: IntentPlan, reading: Reading, index: SearchReplica, lexicon: IntentLexicon, now: Date): Suggestion[] {
  const suggestions: Suggestion[] = [];
  const exists = (kept: readonly Term[], filters: ReplicaFilters) =>
    index.exists({ words: kept.map((term) => term.forms), not: reading.excluded, filters, sort: 'relevance', limit: 1, now: now.toISOString() });
  if (plan.reason === 'filters' || (plan.reason === null && !plan.empty)) {
    const groups = filterGroups(plan.filters);
    const without = (names: readonly string[]) => Object.fromEntries(Object.entries(plan.filters).filter(([name]) => !names.includes(name))) as ReplicaFilters;
    for (const group of groups) {
      if (exists(plan.kept, without(group.names))) {
        suggestions.push({ type: 'loosen-filter', value: group.names.filter((name) => name !== 'currency' || group.names.length === 1).join(','), message: `Nothing matches with ${group.label}; without it, products match` });
      }
    }
    if (suggestions.length === 0 && groups.length > 1) {
      const names = groups.flatMap((group) => group.names);
      if (exists(plan.kept, without(names))) suggestions.push({ type: 'loosen-filter', value: [...new Set(names)].join(','), message: `No single filter rules everything out; without ${groups.map((group) => group.label).join(', ')}, products match` });
    }
    for (const term of plan.kept) {
      if (term === plan.head) continue;
      const rest = plan.kept.filter((other) => other !== term);
      if (exists(rest, plan.filters)) suggestions.push({ type: 'drop-keyword', value: term.word, message: `Without "${term.word}", products match within the filters` });
    }
    return suggestions;
  }
  // The head is there, but as another product ("toilet paper"): say what dropping the word would find.
  if (plan.head && present(plan.head, lexicon)) {
    for (const term of compoundOf(plan.head, reading.terms, lexicon)) {
      if (exists([plan.head], {})) suggestions.push({ type: 'drop-keyword', value: term.word, message: `No product is a "${term.word} ${plan.head.word}"; without "${term.word}", products match "${plan.head.word}"` });
    }
  }
  // No product has the main word: catalog words near the ones that matched nothing, and categories.
  const missing = reading.terms.filter((term) => !plan.kept.includes(term) || term === plan.head).filter((term) => !present(term, lexicon));
  for (const term of missing.slice(0, 3)) {
    for (const near of nearestWords(tokens(term.word).join(''), lexicon.vocabulary)) {
      suggestions.push({ type: 'try-keyword', value: near, message: `No product mentions "${term.word}"; the catalog has "${near}"` });
    }
  }
  // Categories nearest the request, at most three, each holding products: where the products holding the
  // main word are, else those holding any other word of the request, else those whose names share a
  // stem with its words. A request that shares nothing with the catalog gets no category.
  const known = reading.terms.filter((term) => present(term, lexicon));
  const headFirst = plan.head && known.includes(plan.head) ? [plan.head] : [];
  let categories = headFirst.length > 0 ? index.categoriesHolding(headFirst.map((term) => term.forms), 3, now.toISOString()) : [];
  if (categories.length === 0 && known.length > 0) categories = index.categoriesHolding(known.map((term) => term.forms), 3, now.toISOString());
  if (categories.length === 0) {
    const stems = reading.terms.flatMap((term) => tokens(term.word)).filter((word) => word.length >= 4).map((word) => word.slice(0, 4));
    categories = lexicon.categories.filter((category) => category.split(/[/-]/).some((segment) => stems.some((stem) => segment.startsWith(stem)))).sort().slice(0, 3);
  }
  for (const category of categories) suggestions.push({ type: 'browse-category', value: category, message: `Products in ${category} come closest` });
  // Nothing near at all: say so, and name the catalog's three largest departments.
  if (suggestions.length === 0) {
    for (const category of index.largestCategories(3)) suggestions.push({ type: 'browse-category', value: category, message: `Nothing in the catalog is near this request; it sells ${category}, among others` });
  }
  return suggestions;
}
