// Where an RFQ's recipients are found. A seller an RFQ reaches has no record of its own: its rfq.created
// event is the record (docs/decisions/rfq-recipients-are-events.md), listed under the seller's RFQs
// (gsi3) and the RFQ's sellers (gsi4); a seller's rfq.closed is listed under the RFQ's sellers told
// (gsi4). These keys are pure, so that the event entity (events.ts) and the RFQ module (rfqs.ts) share
// them without importing each other.
import type { IndexKeys } from './entity.ts';

/** A seller's RFQs, by RFQ id (gsi3). */
export const sellerRfqsPartition = (sellerId: string): string => `SELLER#${sellerId}#RFQS`;
/** The sellers an RFQ was sent to, by seller id (gsi4). */
export const rfqSentPartition = (rfqId: string): string => `RFQ#${rfqId}#SENT`;
/** The sellers told that an RFQ closed, by seller id (gsi4). */
export const rfqToldPartition = (rfqId: string): string => `RFQ#${rfqId}#TOLD`;

/**
 * The recipient keys of an event: rfq.created and rfq.closed to a seller (not a sample event: the
 * sandbox's samples name RFQs that do not exist). Neither names a buyer, so gsi4 is free of the buyer's
 * events feed on them.
 */
export function recipientIndexKeys(type: string, data: Record<string, unknown>): IndexKeys {
  const { rfqId, sellerId, buyerId, sample } = data;
  if (typeof rfqId !== 'string' || typeof sellerId !== 'string' || buyerId !== undefined || sample === true) return {};
  if (type === 'rfq.created') return { gsi3pk: sellerRfqsPartition(sellerId), gsi3sk: rfqId, gsi4pk: rfqSentPartition(rfqId), gsi4sk: sellerId };
  if (type === 'rfq.closed') return { gsi4pk: rfqToldPartition(rfqId), gsi4sk: sellerId };
  return {};
}
