// Negotiation sessions (contract §3 "Negotiation session"). A session is one item under its own id,
// so either party reads it with one GetItem; it also carries the list keys of both parties (gsi1: the
// buyer's, gsi2: the seller's, newest first) and, while open, a key in the expiry index (gsi3, sorted
// by expiresAt) that the expiry sweep reads. Every change rewrites the item on the condition that its
// `version` is the one the change was computed from: of racing moves exactly one lands.
// Access patterns: docs/data-model.md.
import * as z from 'zod';
import { NegotiationSession } from '../schemas/trade.ts';
import { defineEntity } from './entity.ts';
import { where, type Condition } from './expressions.ts';
import { transactWrite, TransactionRefused, type TransactOperation } from './transactions.ts';

const EXPIRY_PARTITION = 'DUE#NEGOTIATION_EXPIRY';

export const NegotiationEntity = defineEntity({
  name: 'negotiation',
  schema: NegotiationSession.extend({
    /** The product's key part (its primary key is seller + sku): the order's stock decrement needs it. */
    productSku: z.string(),
    /** Incremented by every write; each write is conditional on the version it read. */
    version: z.int().min(1),
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

export function getNegotiation(sessionId: string): Promise<NegotiationItem | undefined> {
  return NegotiationEntity.get({ sessionId }, { consistent: true });
}

/** The session was changed by someone else since it was read: here it is as it is now. */
export class NegotiationChanged extends Error {
  readonly current: NegotiationItem | undefined;
  constructor(current: NegotiationItem | undefined) {
    super('The negotiation session changed meanwhile');
    this.name = 'NegotiationChanged';
    this.current = current;
  }
}

/** The operation that writes `next` if the stored session is still at `expectedVersion` (0: a new session). */
export function putNegotiationOperation(
  next: NegotiationItem,
  expectedVersion: number,
  extraCondition?: Condition,
): TransactOperation {
  const condition = expectedVersion === 0 ? where.notExists('pk') : where.and(NegotiationEntity.where.eq('version', expectedVersion), extraCondition);
  return NegotiationEntity.putOperation('session', next, { sessionId: next.sessionId }, condition);
}

/** Writes the session with the other operations (events, an order…); NegotiationChanged when its version moved on. */
export async function writeNegotiation(operations: readonly TransactOperation[]): Promise<void> {
  try {
    await transactWrite(operations);
  } catch (error) {
    if (error instanceof TransactionRefused && error.has('session')) throw new NegotiationChanged(error.current<NegotiationItem>('session'));
    throw error;
  }
}

/** A party's sessions, newest first: the buyer's through gsi1, the seller's through gsi2. */
export function listNegotiationsOf(party: 'buyer' | 'seller', agentId: string, options: { limit: number; startKey?: Record<string, unknown>; filter?: Condition | undefined }) {
  return NegotiationEntity.query({
    index: party === 'buyer' ? 'gsi1' : 'gsi2',
    partition: `${party === 'buyer' ? 'BUYER' : 'SELLER'}#${agentId}#NEGOTIATIONS`,
    ascending: false,
    limit: options.limit,
    startKey: options.startKey,
    ...(options.filter ? { filter: options.filter } : {}),
  });
}

/** Open sessions whose expiresAt has passed, soonest first (the expiry index). */
export async function listExpiredOpenNegotiations(now: Date, limit: number): Promise<NegotiationItem[]> {
  const page = await NegotiationEntity.query({ index: 'gsi3', partition: EXPIRY_PARTITION, sortKey: { lessThan: `${now.toISOString()}~` }, limit });
  return page.items;
}
