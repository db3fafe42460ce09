// Full-text match expressions as FTS5 reads them, built from a query's terms: every word quoted, so no
// operator ever comes from user text.
import { surfaceWords } from './text.ts';

/**
 * A term to match: a string is a word (each of its words a separate term, the last maybe a prefix); an
 * array is alternatives, any of which satisfies it, each a word or a phrase ("usb c": the words in a row).
 */
export type ReplicaTerm = string | readonly string[];

/** What a match expression is built from (the text part of a ReplicaQuery). */
export interface MatchTerms {
  /** Terms to match: all of them (default) or any. */
  words: readonly ReplicaTerm[];
  /** Words or phrases an item must not hold. */
  not?: readonly string[];
  /** The last word also matches longer words (a query typed in part). */
  prefixLast?: boolean;
  /** All words must match (default), or any (ranked by how well they match). */
  match?: 'all' | 'any';
}

/** A phrase as FTS5 reads it: its words quoted, in a row. */
export function phrase(text: string): string {
  return `"${surfaceWords(text).join(' ')}"`;
}

/**
 * FTS5 query: every word quoted (no operators from user text); all terms required (or any), a term of
 * alternatives as an OR group, the last plain word optionally a prefix, and ruled-out words after NOT.
 */
export function matchExpression(query: MatchTerms): string {
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
