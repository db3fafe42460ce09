// What the sandbox's house agents keep besides ordinary records: the catalog version the house seller
// last loaded (so a start or deploy loads it only when it changed), and the house seller's fulfilment
// work — one item per confirmed order, due when the order is to move on (shipped, then delivered), in
// the due-work index. Access patterns: docs/data-model.md (52–54).
import * as z from '../schemas/zod.ts';
import { defineEntity } from './entity.ts';

export const HouseCatalogEntity = defineEntity({
  name: 'houseCatalog',
  schema: z.object({ sellerId: z.string(), version: z.string(), products: z.int(), loadedAt: z.string() }),
  key: ({ sellerId }: { sellerId: string }) => ({ pk: `AGENT#${sellerId}`, sk: 'HOUSE_CATALOG' }),
});
export type HouseCatalogItem = z.output<typeof HouseCatalogEntity.schema>;

export function getHouseCatalog(sellerId: string): Promise<HouseCatalogItem | undefined> {
  return HouseCatalogEntity.get({ sellerId }, { consistent: true });
}

export async function putHouseCatalog(item: HouseCatalogItem): Promise<void> {
  await HouseCatalogEntity.put(item, item);
}

const DUE_PARTITION = 'DUE#HOUSE_FULFILMENT';

export const FulfilmentWorkEntity = defineEntity({
  name: 'houseFulfilment',
  schema: z.object({ orderId: z.string(), dueAt: z.string() }),
  key: ({ orderId }: { orderId: string }) => ({ pk: `ORDER#${orderId}`, sk: 'HOUSE_FULFILMENT' }),
  indexKeys: (work) => ({ gsi3pk: DUE_PARTITION, gsi3sk: `${work.dueAt}#${work.orderId}` }),
});
export type FulfilmentWork = z.output<typeof FulfilmentWorkEntity.schema>;

/** The order's next move is due at `dueAt` (replaces what was due before). */
export async function scheduleFulfilment(orderId: string, dueAt: Date): Promise<void> {
  const work = { orderId, dueAt: dueAt.toISOString() };
  await FulfilmentWorkEntity.put(work, work);
}

export async function finishFulfilment(orderId: string): Promise<void> {
  await FulfilmentWorkEntity.delete({ orderId });
}

/** Orders whose next move is due, oldest first. */
export async function listDueFulfilment(now: Date, limit: number): Promise<FulfilmentWork[]> {
  const page = await FulfilmentWorkEntity.query({ index: 'gsi3', partition: DUE_PARTITION, sortKey: { lessThan: `${now.toISOString()}~` }, limit });
  return page.items;
}
