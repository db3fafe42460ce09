// Requests for quotes (contract §5.7). An RFQ and its quotes share the partition `RFQ#<id>`: the RFQ
// under `RFQ`, each seller's one quote under `QUOTE#<sellerId>` (one per seller by its key: a second
// submission replaces it). gsi1 lists a buyer's RFQs, newest first. Two due-work partitions: gsi3 holds
// an RFQ while it is open, by closesAt (the closing sweep); gsi2 `DUE#RFQ_DISPATCH` holds it while the
// sellers still have to be found or told it closed (the dispatch worker and its sweep). A seller the RFQ
// reached has no item of its own: its rfq.created event is its recipient record, and its rfq.closed
// marks it told (rfq-recipient-keys.ts; docs/decisions/rfq-recipients-are-events.md).
//
// The RFQ item holds attributes the API never shows, and this module owns them: `version` (every write
// of the RFQ is conditional on the version read, so of racing awards, cancels and closings exactly one
// lands), `matchedAt` (its recipients are written), `dispatchLeaseUntil` (one dispatch run at a time)
// and `sellersToldAt` (they were told it closed). A quote holds `productSku` (its product's key part,
// which the awarded session needs) and `version`; writing a quote checks, in the same transaction, that
// the RFQ is open and before closesAt: a quote never lands on a closed, awarded or cancelled RFQ.
// Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import { Quote, Rfq } from '../schemas/rfqs.ts';
import { batchWrite, type WriteRequest } from './batches.ts';
import { ConditionRefused, defineEntity, type IndexKeys } from './entity.ts';
import { EventEntity, type EventItem } from './events.ts';
import { rfqSentPartition, rfqToldPartition, sellerRfqsPartition } from './rfq-recipient-keys.ts';
import { where, type Condition } from './expressions.ts';
import { transactWrite, TransactionRefused, type TransactOperation } from './transactions.ts';

const CLOSING_PARTITION = 'DUE#RFQ_CLOSING';
/** BatchWriteItem calls of one dispatch in flight at once. */
const DISPATCH_WRITE_PARALLELISM = 8;
const DISPATCH_PARTITION = 'DUE#RFQ_DISPATCH';

const { quotes: _quotes, sellerCount: _count, invitedSellerIds: _invited, ...rfqShape } = Rfq.shape;

export const RfqEntity = defineEntity({
  name: 'rfq',
  schema: z.object({
    ...rfqShape,
    invitedSellerIds: z.array(z.string()),
    /** Sellers it was sent to; null until they are found. */
    sellerCount: z.nullable(z.int()),
    /** Incremented by every write of the RFQ; each is conditional on the version it read. */
    version: z.int().check(z.gte(1)),
    /** When its recipients (invited or matched) were all written, each with its rfq.created. */
    matchedAt: z.optional(z.string()),
    /** A dispatch run holds the RFQ until then (a lease: one run at a time; a run that died is taken over after it). */
    dispatchLeaseUntil: z.optional(z.string()),
    /** When every recipient but the winner was told it closed (rfq.closed), after an award or a cancel. */
    sellersToldAt: z.optional(z.string()),
  }),
  key: ({ rfqId }: { rfqId: string }) => ({ pk: `RFQ#${rfqId}`, sk: 'RFQ' }),
  indexKeys: (rfq): IndexKeys => ({
    gsi1pk: `BUYER#${rfq.buyerId}#RFQS`,
    gsi1sk: rfq.rfqId,
    ...(needsDispatch(rfq) ? { gsi2pk: DISPATCH_PARTITION, gsi2sk: rfq.rfqId } : {}),
    ...(rfq.status === 'open' ? { gsi3pk: CLOSING_PARTITION, gsi3sk: `${rfq.closesAt}#${rfq.rfqId}` } : {}),
  }),
});
export type RfqItem = z.output<typeof RfqEntity.schema>;

/** Whether the dispatch worker still has work on the RFQ: finding its sellers, or telling them it closed. */
export function needsDispatch(rfq: { status: string; matchedAt?: string | undefined; sellersToldAt?: string | undefined }): boolean {
  if (rfq.matchedAt === undefined) return true;
  return (rfq.status === 'awarded' || rfq.status === 'cancelled') && rfq.sellersToldAt === undefined;
}

/** A seller an RFQ was sent to: read from its rfq.created event, which is the record. */
export interface RfqRecipient {
  rfqId: string;
  sellerId: string;
  /** Invited by the buyer (sellerIds), rather than matched by its catalog. */
  invited: boolean;
  /** Its rfq.created. */
  eventId: string;
  sentAt: string;
}

function toRecipient(event: EventItem): RfqRecipient {
  const { rfqId, sellerId, invited } = event.data as { rfqId: string; sellerId: string; invited: boolean };
  return { rfqId, sellerId, invited, eventId: event.eventId, sentAt: event.occurredAt };
}

const { status: _status, totalAmount: _total, ...quoteShape } = Quote.shape;

export const QuoteEntity = defineEntity({
  name: 'quote',
  schema: z.object({
    ...quoteShape,
    buyerId: z.string(),
    /** The quoted product's key part (its primary key is seller + sku): the awarded session trades it. */
    productSku: z.string(),
  }),
  key: ({ rfqId, sellerId }: { rfqId: string; sellerId: string }) => ({ pk: `RFQ#${rfqId}`, sk: `QUOTE#${sellerId}` }),
});
export type QuoteItem = z.output<typeof QuoteEntity.schema>;

export function getRfq(rfqId: string): Promise<RfqItem | undefined> {
  return RfqEntity.get({ rfqId }, { consistent: true });
}

/** The seller's recipient record of the RFQ, if it was sent the RFQ (from gsi4: a seller reads it after its rfq.created reached it). */
export async function getRecipient(rfqId: string, sellerId: string): Promise<RfqRecipient | undefined> {
  const page = await EventEntity.query({ index: 'gsi4', partition: rfqSentPartition(rfqId), sortKey: { between: [sellerId, sellerId] }, limit: 1 });
  const [event] = page.items;
  return event ? toRecipient(event) : undefined;
}

export function getQuote(rfqId: string, sellerId: string): Promise<QuoteItem | undefined> {
  return QuoteEntity.get({ rfqId, sellerId }, { consistent: true });
}

/** Every quote of an RFQ (one per seller), read consistently. */
export async function listQuotes(rfqId: string): Promise<QuoteItem[]> {
  const quotes: QuoteItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await QuoteEntity.query({ partition: `RFQ#${rfqId}`, sortKey: { beginsWith: 'QUOTE#' }, startKey, consistent: true });
    quotes.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return quotes;
}

/** The sellers listed in one of an RFQ's gsi4 partitions (sent, or told it closed), as their events. */
async function rfqSellerEvents(partition: string): Promise<EventItem[]> {
  const events: EventItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await EventEntity.query({ index: 'gsi4', partition, startKey });
    events.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return events;
}

/** Every seller an RFQ was sent to. */
export async function listRecipients(rfqId: string): Promise<RfqRecipient[]> {
  return (await rfqSellerEvents(rfqSentPartition(rfqId))).map(toRecipient);
}

/** The sellers told that an RFQ closed (their rfq.closed). */
export async function listSellersTold(rfqId: string): Promise<Set<string>> {
  return new Set((await rfqSellerEvents(rfqToldPartition(rfqId))).map((event) => event.data.sellerId as string));
}

/** A buyer's RFQs, newest first (gsi1). */
export function listBuyerRfqs(buyerId: string, options: { limit: number; startKey?: Record<string, unknown> | undefined; filter?: Condition | undefined }) {
  return RfqEntity.query({ index: 'gsi1', partition: `BUYER#${buyerId}#RFQS`, ascending: false, limit: options.limit, startKey: options.startKey, ...(options.filter ? { filter: options.filter } : {}) });
}

/** The RFQs a seller was sent, newest first (its rfq.created events in gsi3). */
export async function listSellerRecipients(sellerId: string, options: { limit: number; startKey?: Record<string, unknown> | undefined }): Promise<{ items: RfqRecipient[]; lastKey?: Record<string, unknown> | undefined }> {
  const page = await EventEntity.query({ index: 'gsi3', partition: sellerRfqsPartition(sellerId), ascending: false, limit: options.limit, startKey: options.startKey });
  return { items: page.items.map(toRecipient), lastKey: page.lastKey };
}

/** RFQs by id (BatchGetItem), for a seller's list. */
export async function getRfqs(rfqIds: readonly string[]): Promise<Map<string, RfqItem>> {
  const found = await RfqEntity.batchGet(rfqIds.map((rfqId) => ({ rfqId })), { consistent: true });
  return new Map([...found.values()].map((rfq) => [rfq.rfqId, rfq]));
}

/** Open RFQs whose closesAt has passed, soonest first (the closing index). */
export async function listDueClosings(now: Date, limit: number): Promise<RfqItem[]> {
  const page = await RfqEntity.query({ index: 'gsi3', partition: CLOSING_PARTITION, sortKey: { lessThan: `${now.toISOString()}~` }, limit });
  return page.items;
}

/** RFQs whose sellers still have to be found or told it closed, oldest first. */
export async function listDueDispatches(limit: number): Promise<RfqItem[]> {
  const page = await RfqEntity.query({ index: 'gsi2', partition: DISPATCH_PARTITION, limit });
  return page.items;
}

/** The operation (`rfq`) that writes a new RFQ at version 1, if none has its id. */
export function newRfqOperation(rfq: Omit<RfqItem, 'version'>): TransactOperation {
  return RfqEntity.putOperation('rfq', { ...rfq, version: 1 }, { rfqId: rfq.rfqId }, where.notExists('pk'));
}

/** The operation (`rfq`) that writes `next` in place of the RFQ as read, one version on, if it is still the version read. */
export function replaceRfqOperation(read: RfqItem, next: Omit<RfqItem, 'version'>): TransactOperation {
  return RfqEntity.putOperation('rfq', { ...next, version: read.version + 1 }, { rfqId: read.rfqId }, RfqEntity.where.eq('version', read.version));
}

/** The check (`open`) that the RFQ takes quotes at `now`: open and before closesAt. */
export function rfqOpenCheck(rfqId: string, now: Date): TransactOperation {
  const { and, eq, gt } = RfqEntity.where;
  return RfqEntity.conditionCheckOperation('open', { rfqId }, and(eq('status', 'open'), gt('closesAt', now.toISOString())));
}

/** The operation (`quote`) that writes a seller's quote: new (none yet), or replacing the one read (its version unchanged). */
export function putQuoteOperation(quote: QuoteItem, previous: QuoteItem | undefined): TransactOperation {
  const condition = previous ? QuoteEntity.where.eq('revision', previous.revision) : where.notExists('pk');
  return QuoteEntity.putOperation('quote', quote, { rfqId: quote.rfqId, sellerId: quote.sellerId }, condition);
}

/** The check (`quote`) that the quote is still the revision read (the award takes its terms as read). */
export function quoteRevisionCheck(quote: QuoteItem): TransactOperation {
  return QuoteEntity.conditionCheckOperation('quote', { rfqId: quote.rfqId, sellerId: quote.sellerId }, QuoteEntity.where.eq('revision', quote.revision));
}

/** Writes many items at once: an RFQ's events to its sellers. */
export function writeAll(requests: readonly WriteRequest[]): Promise<void> {
  return batchWrite(requests, { parallelism: DISPATCH_WRITE_PARALLELISM });
}

/** How long a dispatch run holds an RFQ before another may take it over. */
export const DISPATCH_LEASE_MS = 60_000;

/**
 * Takes the RFQ's dispatch for one run (a lease until now + DISPATCH_LEASE_MS), if no other run holds it
 * and it is still the version read: the RFQ as taken, or undefined when another run has it (or it moved).
 */
export async function claimDispatch(rfq: RfqItem, now: Date): Promise<RfqItem | undefined> {
  const { and, eq, lt, notExists, or } = RfqEntity.where;
  try {
    return await RfqEntity.update(
      { rfqId: rfq.rfqId },
      { set: { dispatchLeaseUntil: new Date(now.getTime() + DISPATCH_LEASE_MS).toISOString() }, add: { version: 1 } },
      { allow: ['dispatchLeaseUntil', 'version'], condition: and(eq('version', rfq.version), or(notExists('dispatchLeaseUntil'), lt('dispatchLeaseUntil', now.toISOString()))) },
    );
  } catch (error) {
    if (error instanceof ConditionRefused) return undefined;
    throw error;
  }
}

/**
 * Marks the RFQ's dispatch step done (matchedAt, or sellersToldAt) and releases its lease, once: one
 * UpdateItem on the version read, leaving the due-work index when nothing is left to do; false if it
 * was done already.
 */
export async function markDispatched(rfqId: string, step: 'matchedAt' | 'sellersToldAt', now: Date, sellerCount?: number): Promise<boolean> {
  for (;;) {
    const current = await getRfq(rfqId);
    if (!current || current[step] !== undefined) return false;
    const done = !needsDispatch({ ...current, [step]: now.toISOString() });
    try {
      await RfqEntity.update(
        { rfqId },
        {
          set: { [step]: now.toISOString(), ...(sellerCount === undefined ? {} : { sellerCount }) },
          add: { version: 1 },
          remove: current.dispatchLeaseUntil === undefined ? [] : ['dispatchLeaseUntil'],
          ...(done ? { removeIndexKeys: ['gsi2'] as const } : {}),
        },
        { allow: ['matchedAt', 'sellersToldAt', 'sellerCount', 'version', 'dispatchLeaseUntil'], condition: RfqEntity.where.eq('version', current.version) },
      );
      return true;
    } catch (error) {
      // Another write (an award, a cancel, the closing) landed in between: read it again and mark it then.
      if (!(error instanceof ConditionRefused)) throw error;
    }
  }
}

export { transactWrite, TransactionRefused };
