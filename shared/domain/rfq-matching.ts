// Which sellers a request for quotes reaches (contract §5.7): those with an active product that search
// would find for it — its words over the same full-text index (the index's stemmer makes "glove" find
// "gloves"), within its category (or below it), in its currency, shipping from one of its countries.
//
// The words: the buyer's keywords, every one required, as a structured search requires its query's
// words (a misspelt one corrected as search corrects it). Without keywords, the title's words that the
// catalog knows (in its spelling: a plural, a British spelling or a typo read as the catalog's word),
// read as search-intent reads an intent: in order, each kept only if some product has it together with
// the words kept before it (so "5,000 nitrile gloves, size M" keeps nitrile and gloves, and drops a word
// no glove has); the first catalog word is never dropped, so an RFQ for something nobody sells reaches
// nobody.
import { surfaceWords, type ReplicaQuery, type SearchReplica } from '../data/search-replica/index.ts';
import { searchWords } from '../data/search-words.ts';
import { catalogWord, queryWord } from './intent/words.ts';

/** The parts of an RFQ that matching reads. */
export interface MatchedRfq {
  title: string;
  keywords: readonly string[];
  category: string | null;
  currency: string;
  shipsFrom: readonly string[];
}

/** The RFQ as a search's match and filters (no ranking: every matching product counts). */
export function rfqMatchQuery(rfq: MatchedRfq, words: readonly string[], now: Date): Pick<ReplicaQuery, 'words' | 'filters' | 'now'> {
  return {
    words,
    filters: {
      currency: rfq.currency,
      ...(rfq.category ? { category: rfq.category } : {}),
      ...(rfq.shipsFrom.length > 0 ? { shipsFrom: rfq.shipsFrom } : {}),
    },
    now: now.toISOString(),
  };
}

const isNumber = (word: string) => /^\d+([.,]\d+)*$/.test(word);

/** The words an RFQ is matched by (see the module's comment). */
export function matchingTerms(rfq: MatchedRfq, index: Pick<SearchReplica, 'words' | 'exists'>, now: Date, english: ReadonlySet<string> = searchWords().english): string[] {
  const vocabulary = index.words();
  if (rfq.keywords.length > 0) return [...new Set(rfq.keywords.flatMap((keyword) => surfaceWords(keyword)).map((word) => queryWord(word, vocabulary, english)))];
  const candidates = [...new Set(surfaceWords(rfq.title).filter((word) => !isNumber(word)).map((word) => catalogWord(word, vocabulary, english)).filter((word): word is string => word !== undefined))];
  const kept: string[] = [];
  for (const word of candidates) {
    const trial = [...kept, word];
    if (kept.length === 0 || index.exists({ ...rfqMatchQuery(rfq, trial, now), sort: 'relevance', limit: 1 })) kept.push(word);
  }
  return kept;
}
