// Orders and their audit trails (contract §3 "Order", "Audit entry"). An order and its audit entries
// share the partition `ORDER#<id>`: the order under `ORDER`, entry n under `AUDIT#<n>` (zero-padded,
// so the trail reads oldest first with one Query). The order counts its entries (`auditCount`); every
// change rewrites the order on the condition that its status and count are the ones the change was
// computed from, and puts entry count+1 in the same transaction: of racing changes exactly one lands,
// and the trail has no gap and no duplicate. gsi1 lists a buyer's orders, gsi2 a seller's, newest first.
// Access patterns: docs/data-model.md.
import * as z from 'zod';
import { AuditEntry, Order } from '../schemas/trade.ts';
import { defineEntity } from './entity.ts';
import { where } from './expressions.ts';
import { transactWrite, TransactionRefused, type TransactOperation } from './transactions.ts';
import { ProductEntity, type ProductItem } from './products.ts';

export const OrderEntity = defineEntity({
  name: 'order',
  schema: Order.extend({
    /** The product's key part (seller + sku): cancelling gives its quantity back. */
    productSku: z.string(),
    auditCount: z.int().min(1),
  }),
  key: ({ orderId }: { orderId: string }) => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' }),
  indexKeys: (order) => ({
    gsi1pk: `BUYER#${order.buyerId}#ORDERS`,
    gsi1sk: order.orderId,
    gsi2pk: `SELLER#${order.sellerId}#ORDERS`,
    gsi2sk: order.orderId,
  }),
});
export type OrderItem = z.output<typeof OrderEntity.schema>;

export const AuditEntryEntity = defineEntity({
  name: 'auditEntry',
  schema: AuditEntry,
  key: ({ orderId, sequence }: { orderId: string; sequence: number }) => ({ pk: `ORDER#${orderId}`, sk: `AUDIT#${String(sequence).padStart(6, '0')}` }),
});

export function getOrder(orderId: string): Promise<OrderItem | undefined> {
  return OrderEntity.get({ orderId }, { consistent: true });
}

export function putOrderOperation(order: OrderItem, previous?: OrderItem): TransactOperation {
  const condition = previous
    ? OrderEntity.where.and(OrderEntity.where.eq('status', previous.status), OrderEntity.where.eq('auditCount', previous.auditCount))
    : where.notExists('pk');
  return OrderEntity.putOperation('order', order, { orderId: order.orderId }, condition);
}

export function putAuditEntryOperation(entry: AuditEntry): TransactOperation {
  return AuditEntryEntity.putOperation('audit', entry, { orderId: entry.orderId, sequence: entry.sequence }, where.notExists('pk'));
}

/**
 * Takes `quantity` units out of (negative: gives them back to) the product's availableQuantity; taking
 * is refused (as operation `stock`) when fewer are left.
 */
export function changeStockOperation(sellerId: string, sku: string, quantity: number, now: Date): TransactOperation {
  const taking = quantity > 0;
  return ProductEntity.updateOperation(
    'stock',
    { sellerId, sku },
    { add: { availableQuantity: -quantity }, set: { updatedAt: now.toISOString() } },
    {
      allow: ['availableQuantity', 'updatedAt'],
      condition: taking ? ProductEntity.where.and(where.exists('pk'), ProductEntity.where.ge('availableQuantity', quantity)) : where.exists('pk'),
    },
  );
}

/** Why a trade transaction was refused: which operation, and its item as it was. */
export class TradeRefused extends Error {
  readonly refusal: TransactionRefused;
  constructor(refusal: TransactionRefused) {
    super(refusal.message);
    this.name = 'TradeRefused';
    this.refusal = refusal;
  }
  get product(): ProductItem | undefined {
    return this.refusal.current<ProductItem>('stock');
  }
}

export async function writeTrade(operations: readonly TransactOperation[]): Promise<void> {
  try {
    await transactWrite(operations);
  } catch (error) {
    if (error instanceof TransactionRefused) throw new TradeRefused(error);
    throw error;
  }
}

const listFilter = (status: string | undefined) =>
  status ? { filter: where.eq('status', status) } : {};

/** A party's orders, newest first: the buyer's through gsi1, the seller's through gsi2. */
export function listOrdersOf(party: 'buyer' | 'seller', agentId: string, options: { limit: number; startKey?: Record<string, unknown>; status?: string }) {
  return OrderEntity.query({
    index: party === 'buyer' ? 'gsi1' : 'gsi2',
    partition: `${party === 'buyer' ? 'BUYER' : 'SELLER'}#${agentId}#ORDERS`,
    ascending: false,
    limit: options.limit,
    startKey: options.startKey,
    ...listFilter(options.status),
  });
}

/** An order's audit trail, oldest first. */
export function listAuditEntries(orderId: string, options: { limit: number; startKey?: Record<string, unknown> }) {
  return AuditEntryEntity.query({ partition: `ORDER#${orderId}`, sortKey: { beginsWith: 'AUDIT#' }, ascending: true, limit: options.limit, startKey: options.startKey });
}
