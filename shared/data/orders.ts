// Orders and their audit trails (contract §3 "Order", "Audit entry"). An order and its audit entries
// share the partition `ORDER#<id>`: the order under `ORDER`, entry n under `AUDIT#<n>` (zero-padded,
// so the trail reads oldest first with one Query). gsi1 lists a buyer's orders, gsi2 a seller's,
// newest first.
//
// The order item holds two attributes the API never shows, and this module owns them: `productSku`
// (copied from the session: the product's key part, so that a cancellation can give the units back)
// and `auditCount`, the number of its audit entries. Reads hand out the order as the API shows it,
// with the stored item kept where only this module reaches it (StoredOrder). Every change rewrites the
// order on the condition that its status and count are the ones read, and puts entry count+1 in the
// same transaction: of racing changes exactly one lands, and the trail has no gap and no duplicate.
// Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import { AuditEntry, Order, type NegotiationSession } from '../schemas/trade.ts';
import { defineEntity } from './entity.ts';
import { where } from './expressions.ts';
import { refusedNegotiation, tradedProductKey, type StoredNegotiation } from './negotiations.ts';
import { ProductEntity, type ProductItem } from './products.ts';
import { transactWrite, TransactionRefused, type TransactOperation } from './transactions.ts';

export const OrderEntity = defineEntity({
  name: 'order',
  schema: z.extend(Order, {
    /** The product's key part (seller + sku): cancelling gives its quantity back. */
    productSku: z.string(),
    /** How many audit entries the order has: the sequence of the last one. */
    auditCount: z.int().check(z.gte(1)),
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

/** An audit entry as a change describes it: its order and its place in the trail are the order's to give. */
export type AuditRecord = Omit<AuditEntry, 'orderId' | 'sequence'>;

/** Where a StoredOrder keeps the item as read: a key no other module can name. */
const ITEM = Symbol('stored order item');

/** An order as read: `order` as the API shows it, and (for this module's writes) the item it came from. */
export interface StoredOrder {
  readonly order: Order;
  readonly [ITEM]: OrderItem;
}

/** The order as the API shows it: the item without its storage-only attributes. */
function toOrder(item: OrderItem): Order {
  const { productSku: _sku, auditCount: _count, ...order } = item;
  return order;
}

export async function getOrder(orderId: string): Promise<StoredOrder | undefined> {
  const item = await OrderEntity.get({ orderId }, { consistent: true });
  return item && { order: toOrder(item), [ITEM]: item };
}

function auditEntryOperation(item: OrderItem, entry: AuditRecord): TransactOperation {
  const sequence = item.auditCount;
  return AuditEntryEntity.putOperation('audit', { ...entry, orderId: item.orderId, sequence }, { orderId: item.orderId, sequence }, where.notExists('pk'));
}

/** The units an order's lines hold: what placing it takes from the product's stock, and cancelling gives back. */
const unitsOf = (order: Order): number => order.items.reduce((units, line) => units + line.quantity, 0);

/**
 * Takes `quantity` units out of (negative: gives them back to) the product's availableQuantity; taking
 * is refused (as operation `stock`) when fewer are left.
 */
function changeStockOperation(product: { sellerId: string; sku: string }, quantity: number, now: Date): TransactOperation {
  const taking = quantity > 0;
  return ProductEntity.updateOperation(
    'stock',
    product,
    { add: { availableQuantity: -quantity }, set: { updatedAt: now.toISOString() } },
    {
      allow: ['availableQuantity', 'updatedAt'],
      condition: taking ? ProductEntity.where.and(where.exists('pk'), ProductEntity.where.ge('availableQuantity', quantity)) : where.exists('pk'),
    },
  );
}

/**
 * Placing an order from a session: the order (`order`, if no order has its id, with the session's
 * product and audit entry 1), its first audit entry (`audit`) and its units taken from the product
 * the session trades (`stock`, refused when fewer are left).
 */
export function placeOrderOperations(order: Order, from: StoredNegotiation, entry: AuditRecord, now: Date): TransactOperation[] {
  const product = tradedProductKey(from);
  const item: OrderItem = { ...order, productSku: product.sku, auditCount: 1 };
  return [
    OrderEntity.putOperation('order', item, { orderId: order.orderId }, where.notExists('pk')),
    auditEntryOperation(item, entry),
    changeStockOperation(product, unitsOf(order), now),
  ];
}

/**
 * A change of an order as read: `next` (`order`, on the condition that the stored status and audit
 * count are still the ones read), the next audit entry (`audit`) and, with `restock`, the order's units
 * given back to its product (`stock`).
 */
export function changeOrderOperations(read: StoredOrder, next: Order, entry: AuditRecord, options: { restock: boolean }, now: Date): TransactOperation[] {
  const previous = read[ITEM];
  const item: OrderItem = { ...next, productSku: previous.productSku, auditCount: previous.auditCount + 1 };
  const { and, eq } = OrderEntity.where;
  const operations = [
    OrderEntity.putOperation('order', item, { orderId: next.orderId }, and(eq('status', previous.status), eq('auditCount', previous.auditCount))),
    auditEntryOperation(item, entry),
  ];
  const units = unitsOf(previous);
  if (options.restock && units > 0) operations.push(changeStockOperation({ sellerId: previous.sellerId, sku: previous.productSku }, -units, now));
  return operations;
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
  get session(): NegotiationSession | undefined {
    return refusedNegotiation(this.refusal);
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
export async function listOrdersOf(party: 'buyer' | 'seller', agentId: string, options: { limit: number; startKey?: Record<string, unknown>; status?: string }) {
  const page = await OrderEntity.query({
    index: party === 'buyer' ? 'gsi1' : 'gsi2',
    partition: `${party === 'buyer' ? 'BUYER' : 'SELLER'}#${agentId}#ORDERS`,
    ascending: false,
    limit: options.limit,
    startKey: options.startKey,
    ...listFilter(options.status),
  });
  return { items: page.items.map(toOrder), lastKey: page.lastKey };
}

/** An order's audit trail, oldest first. */
export function listAuditEntries(orderId: string, options: { limit: number; startKey?: Record<string, unknown> }) {
  return AuditEntryEntity.query({ partition: `ORDER#${orderId}`, sortKey: { beginsWith: 'AUDIT#' }, ascending: true, limit: options.limit, startKey: options.startKey });
}
