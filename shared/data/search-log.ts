// The search index's change log, in the table: every catalog change that search must see, in order.
// The stream worker appends one entry per batch of product and offer images, numbered 1, 2, 3…; the
// head item holds the last number and the latest snapshot. A search instance compares the head with
// its replica (one GetItem, at most once per refresh interval) and reads only the entries it lacks
// (one Query). Entries expire after a week; snapshots are taken every few minutes.
import * as z from '../schemas/zod.ts';
import { ConditionRefused, defineEntity } from './entity.ts';
import { where } from './expressions.ts';
import { transactWrite, TransactionRefused } from './transactions.ts';
import type { SearchChange } from './search-replica/index.ts';

const PARTITION = 'SEARCH_INDEX';
const ENTRY_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Room for an entry's changes under DynamoDB's 400 KB item limit. */
const ENTRY_MAX_BYTES = 300_000;

export const SearchHeadEntity = defineEntity({
  name: 'searchIndexHead',
  schema: z.object({
    seq: z.int().check(z.gte(0)),
    /** The newest snapshot: the log sequence it includes and its object key (null before the first). */
    snapshotSeq: z.int().check(z.gte(0)),
    snapshotKey: z.nullable(z.string()),
    snapshotAt: z.nullable(z.string()),
    updatedAt: z.string(),
  }),
  key: (_head: Record<string, never>) => ({ pk: PARTITION, sk: 'HEAD' }),
});
const { and, eq, exists, lt, notExists, or } = SearchHeadEntity.where;
export type SearchHead = z.output<typeof SearchHeadEntity.schema>;

export const SearchLogEntryEntity = defineEntity({
  name: 'searchIndexEntry',
  schema: z.object({
    seq: z.int().check(z.gte(1)),
    /** JSON of the entry's SearchChange list (one attribute: cheaper to write and read than a map per change). */
    changes: z.string(),
    recordedAt: z.string(),
    expiresAt: z.int(),
  }),
  key: ({ seq }: { seq: number }) => ({ pk: PARTITION, sk: `ENTRY#${String(seq).padStart(12, '0')}` }),
});

const EMPTY_HEAD: SearchHead = { seq: 0, snapshotSeq: 0, snapshotKey: null, snapshotAt: null, updatedAt: new Date(0).toISOString() };

export async function readSearchHead(): Promise<SearchHead> {
  return (await SearchHeadEntity.get({}, { consistent: true })) ?? EMPTY_HEAD;
}

/** Splits changes into entries that fit an item each. */
function chunks(changes: readonly SearchChange[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  for (const change of changes) {
    const json = JSON.stringify(change);
    if (current.length > 0 && bytes + json.length + 1 > ENTRY_MAX_BYTES) {
      out.push(`[${current.join(',')}]`);
      current = [];
      bytes = 2;
    }
    current.push(json);
    bytes += json.length + 1;
  }
  if (current.length > 0) out.push(`[${current.join(',')}]`);
  return out;
}

/**
 * Appends changes as the next entries. Each entry and the head's new number are one transaction
 * conditioned on the number read, so concurrent appenders (several stream shards) never share or skip
 * a number; the loser re-reads the head and tries the next one.
 */
export async function appendSearchChanges(changes: readonly SearchChange[], now: Date): Promise<number> {
  let last = 0;
  for (const entry of chunks(changes)) {
    for (let attempt = 0; ; attempt += 1) {
      const head = await readSearchHead();
      const seq = head.seq + 1;
      try {
        await transactWrite([
          SearchHeadEntity.putOperation(
            'head',
            { ...head, seq, updatedAt: now.toISOString() },
            {},
            head.seq === 0 ? or(notExists('pk'), eq('seq', 0)) : eq('seq', head.seq),
          ),
          SearchLogEntryEntity.putOperation(
            'entry',
            { seq, changes: entry, recordedAt: now.toISOString(), expiresAt: Math.floor(now.getTime() / 1000) + ENTRY_TTL_SECONDS },
            { seq },
            where.notExists('pk'),
          ),
        ]);
        last = seq;
        break;
      } catch (error) {
        if (!(error instanceof TransactionRefused) || attempt >= 20) throw error;
      }
    }
  }
  return last;
}

/** Log entries after `afterSeq`, oldest first (their changes parsed). */
export async function readSearchChanges(afterSeq: number): Promise<{ seq: number; changes: SearchChange[] }[]> {
  const entries: { seq: number; changes: SearchChange[] }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await SearchLogEntryEntity.query({
      partition: PARTITION,
      sortKey: { between: [`ENTRY#${String(afterSeq + 1).padStart(12, '0')}`, 'ENTRY#999999999999'] },
      startKey,
      consistent: true,
    });
    for (const item of page.items) entries.push({ seq: item.seq, changes: JSON.parse(item.changes) as SearchChange[] });
    startKey = page.lastKey;
  } while (startKey);
  return entries;
}

/** Records a new snapshot on the head, unless a newer one is already there. */
export async function recordSearchSnapshot(snapshotSeq: number, snapshotKey: string, now: Date): Promise<boolean> {
  try {
    await SearchHeadEntity.update(
      {},
      { set: { snapshotSeq, snapshotKey, snapshotAt: now.toISOString() } },
      { allow: ['snapshotSeq', 'snapshotKey', 'snapshotAt'], condition: and(exists('pk'), lt('snapshotSeq', snapshotSeq)) },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionRefused) return false;
    throw error;
  }
}

/**
 * One page of log entries after `afterSeq`, oldest first (at most `limit` entries, which are up to
 * 300 KB each): for readers that look through the log without keeping it, page by page.
 */
export async function readSearchChangesPage(afterSeq: number, limit: number): Promise<{ seq: number; changes: SearchChange[] }[]> {
  const page = await SearchLogEntryEntity.query({
    partition: PARTITION,
    sortKey: { between: [`ENTRY#${String(afterSeq + 1).padStart(12, '0')}`, 'ENTRY#999999999999'] },
    limit,
    consistent: true,
  });
  return page.items.map((item) => ({ seq: item.seq, changes: JSON.parse(item.changes) as SearchChange[] }));
}
