// What a feed run wrote, chunk by chunk, for the wait until search has it (shared/domain/feed-processing.ts):
// each chunk's product and offer ids, the time stamped on them, and the search log's sequence before
// they were written. Written before the chunk's items, so a run that stops after writing them still has
// the receipt; a resumed run writing the same chunk again replaces it (the key is the chunk's first row).
// Kept a week, like the search log's entries. Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import { defineEntity } from './entity.ts';

const RECEIPT_TTL_SECONDS = 7 * 24 * 60 * 60;

export const FeedSearchReceiptEntity = defineEntity({
  name: 'feedSearchReceipt',
  schema: z.object({
    feedId: z.string(),
    attempt: z.int(),
    /** The chunk's first row number in the file: the receipt's place. */
    firstRow: z.int(),
    /** The updatedAt of every product and offer the chunk wrote. */
    writtenAt: z.string(),
    /** The search log's head sequence read before the chunk was written: its images come after it. */
    logSeqBefore: z.int(),
    productIds: z.array(z.string()),
    offerIds: z.array(z.string()),
    expiresAt: z.int(),
  }),
  key: ({ feedId, attempt, firstRow }: { feedId: string; attempt: number; firstRow: number }) => ({
    pk: `FEED#${feedId}#SEARCH`,
    sk: `ATTEMPT#${String(attempt).padStart(4, '0')}#ROW#${String(firstRow).padStart(12, '0')}`,
  }),
});
export type FeedSearchReceipt = z.output<typeof FeedSearchReceiptEntity.schema>;

export function putFeedSearchReceipt(receipt: Omit<FeedSearchReceipt, 'expiresAt'>, now: Date): Promise<FeedSearchReceipt> {
  const item = { ...receipt, expiresAt: Math.floor(now.getTime() / 1000) + RECEIPT_TTL_SECONDS };
  return FeedSearchReceiptEntity.put(item, item);
}

/** Every receipt of one attempt of a feed. */
export async function listFeedSearchReceipts(feedId: string, attempt: number): Promise<FeedSearchReceipt[]> {
  const receipts: FeedSearchReceipt[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await FeedSearchReceiptEntity.query({ partition: `FEED#${feedId}#SEARCH`, sortKey: { beginsWith: `ATTEMPT#${String(attempt).padStart(4, '0')}#` }, startKey, consistent: true });
    receipts.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return receipts;
}
