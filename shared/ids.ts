// Identifiers: a type prefix plus a ULID, so ids sort by creation time (contract §1).
import { decodeTime, encodeTime, monotonicFactory } from 'ulid';

export const ID_PREFIXES = {
  agent: 'agt_',
  product: 'prd_',
  offer: 'ofr_',
  negotiation: 'neg_',
  order: 'ord_',
  audit: 'aud_',
  feed: 'feed_',
  webhook: 'whk_',
  event: 'evt_',
  delivery: 'dlv_',
  request: 'req_',
  /** An API key's id (main and restricted keys); never the secret. */
  key: 'key_',
  /** A request for quotes and a seller's quote on it (contract §5.7). */
  rfq: 'rfq_',
  quote: 'qte_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ulid = monotonicFactory();

export function newId<K extends IdKind>(kind: K): `${(typeof ID_PREFIXES)[K]}${string}` {
  return `${ID_PREFIXES[kind]}${ulid()}`;
}

const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

/** A regular expression matching ids of one kind, for path-parameter validation. */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}${ULID_PATTERN}$`);
}

/**
 * The id prefix of a moment (`evt_` + the ULID's 10 time characters): every id of that kind issued
 * before `ms` sorts below it, every id issued at or after it above it.
 */
export function idTimePrefix(kind: IdKind, ms: number): string {
  return `${ID_PREFIXES[kind]}${encodeTime(ms, 10)}`;
}

/** When an id was issued (epoch milliseconds), from its ULID's time part. */
export function idTime(id: string): number {
  return decodeTime(id.slice(id.indexOf('_') + 1));
}
