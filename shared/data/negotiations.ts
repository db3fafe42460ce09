// Negotiation sessions (contract §3 "Negotiation session"). A session is one item under its own id,
// so either party reads it with one GetItem; it also carries the list keys of both parties (gsi1: the
// buyer's, gsi2: the seller's, newest first) and, while open, a key in the expiry index (gsi3, sorted
// by expiresAt) that the expiry sweep reads.
//
// The item holds two attributes the API never shows, and this module owns them: `productSku` (the
// traded product's key part: its primary key is seller + sku) and `version`. Reads hand out the
// session as the API shows it, with the stored item kept where only this module reaches it
// (StoredNegotiation); a write of the next state goes one version on, on the condition that the stored
// version is still the one read: of racing moves exactly one lands.
// Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import { NegotiationSession } from '../schemas/trade.ts';
import { defineEntity } from './entity.ts';
import { where, type Condition } from './expressions.ts';
import { getProductBySku, type ProductItem } from './products.ts';
import { transactWrite, TransactionRefused, type TransactOperation } from './transactions.ts';

const EXPIRY_PARTITION = 'DUE#NEGOTIATION_EXPIRY';

export const NegotiationEntity = defineEntity({
  name: 'negotiation',
  schema: z.extend(NegotiationSession, {
    /** Shown as the session's sku; absent from sessions stored before it was shown, which read it from productSku. */
    sku: z.optional(z.string()),
    /** Absent from sessions stored before titles were kept, which read as null. */
    title: z.optional(z.nullable(z.string())),
    /** The product's key part (its primary key is seller + sku): reading the product and the order's stock change need it. */
    productSku: z.string(),
    /** Incremented by every write; each write is conditional on the version it read. */
    version: z.int().check(z.gte(1)),
  }),
  key: ({ sessionId }: { sessionId: string }) => ({ pk: `NEGOTIATION#${sessionId}`, sk: 'NEGOTIATION' }),
  indexKeys: (session) => ({
    gsi1pk: `BUYER#${session.buyerId}#NEGOTIATIONS`,
    gsi1sk: session.sessionId,
    gsi2pk: `SELLER#${session.sellerId}#NEGOTIATIONS`,
    gsi2sk: session.sessionId,
    ...(session.status === 'open' && session.expiresAt ? { gsi3pk: EXPIRY_PARTITION, gsi3sk: `${session.expiresAt}#${session.sessionId}` } : {}),
  }),
});
export type NegotiationItem = z.output<typeof NegotiationEntity.schema>;

/** Where a StoredNegotiation keeps the item as read: a key no other module can name. */
const ITEM = Symbol('stored negotiation item');

/** A session as read: `session` as the API shows it, and (for this module's writes) the item it came from. */
export interface StoredNegotiation {
  readonly session: NegotiationSession;
  readonly [ITEM]: NegotiationItem;
}

/** The session as the API shows it: the item without its storage-only attributes. */
export function toNegotiationSession(item: NegotiationItem): NegotiationSession {
  const { productSku, version: _version, ...session } = item;
  return { ...session, sku: session.sku ?? productSku, title: session.title ?? null };
}

const stored = (item: NegotiationItem): StoredNegotiation => ({ session: toNegotiationSession(item), [ITEM]: item });

export async function getNegotiation(sessionId: string): Promise<StoredNegotiation | undefined> {
  const item = await NegotiationEntity.get({ sessionId }, { consistent: true });
  return item && stored(item);
}

/** The primary key of the product a session trades (its seller and the sku stored with the session). */
export function tradedProductKey(read: StoredNegotiation): { sellerId: string; sku: string } {
  return { sellerId: read[ITEM].sellerId, sku: read[ITEM].productSku };
}

/** The product a session trades, as it is now (one GetItem). */
export function getTradedProduct(read: StoredNegotiation): Promise<ProductItem | undefined> {
  const { sellerId, sku } = tradedProductKey(read);
  return getProductBySku(sellerId, sku);
}

/** The session was changed by someone else since it was read: here it is as it is now. */
export class NegotiationChanged extends Error {
  readonly current: NegotiationSession | undefined;
  constructor(current: NegotiationSession | undefined) {
    super('The negotiation session changed meanwhile');
    this.name = 'NegotiationChanged';
    this.current = current;
  }
}

/** The operation (`session`) that writes a new session trading `product`, at version 1, if no session has its id. */
export function newNegotiationOperation(session: NegotiationSession, product: Pick<ProductItem, 'sellerId' | 'sku'>): TransactOperation {
  // The product's key is seller + sku, and the session keeps only the sku: the seller must be the session's.
  if (product.sellerId !== session.sellerId) throw new Error(`Session ${session.sessionId} is with ${session.sellerId}, not the product's seller ${product.sellerId}`);
  const item: NegotiationItem = { ...session, productSku: product.sku, version: 1 };
  return NegotiationEntity.putOperation('session', item, { sessionId: session.sessionId }, where.notExists('pk'));
}

/**
 * The operation (`session`) that writes `next` in place of the session as read, one version on, on the
 * condition that the stored version is still the one read (and `condition`, when given).
 */
export function replaceNegotiationOperation(read: StoredNegotiation, next: NegotiationSession, condition?: Condition): TransactOperation {
  const previous = read[ITEM];
  const item: NegotiationItem = { ...next, productSku: previous.productSku, version: previous.version + 1 };
  return NegotiationEntity.putOperation('session', item, { sessionId: next.sessionId }, where.and(NegotiationEntity.where.eq('version', previous.version), condition));
}

/** The session as it was when its operation refused, as the API shows it (undefined: it did not exist). */
export function refusedNegotiation(refusal: TransactionRefused): NegotiationSession | undefined {
  const item = refusal.current<NegotiationItem>('session');
  return item && toNegotiationSession(item);
}

/** Writes the session with the other operations (events, an order…); NegotiationChanged when its version moved on. */
export async function writeNegotiation(operations: readonly TransactOperation[]): Promise<void> {
  try {
    await transactWrite(operations);
  } catch (error) {
    if (error instanceof TransactionRefused && error.has('session')) throw new NegotiationChanged(refusedNegotiation(error));
    throw error;
  }
}

/** A party's sessions, newest first: the buyer's through gsi1, the seller's through gsi2. */
export async function listNegotiationsOf(party: 'buyer' | 'seller', agentId: string, options: { limit: number; startKey?: Record<string, unknown>; filter?: Condition | undefined }) {
  const page = await NegotiationEntity.query({
    index: party === 'buyer' ? 'gsi1' : 'gsi2',
    partition: `${party === 'buyer' ? 'BUYER' : 'SELLER'}#${agentId}#NEGOTIATIONS`,
    ascending: false,
    limit: options.limit,
    startKey: options.startKey,
    ...(options.filter ? { filter: options.filter } : {}),
  });
  return { items: page.items.map(toNegotiationSession), lastKey: page.lastKey };
}

/** Open sessions whose expiresAt has passed, soonest first (the expiry index). */
export async function listExpiredOpenNegotiations(now: Date, limit: number): Promise<StoredNegotiation[]> {
  const page = await NegotiationEntity.query({ index: 'gsi3', partition: EXPIRY_PARTITION, sortKey: { lessThan: `${now.toISOString()}~` }, limit });
  return page.items.map(stored);
}
