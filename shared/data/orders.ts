// Orders and their audit trails (contract §3 "Order", "Audit entry"). An order and its audit entries
// share the partition `ORDER#<id>`: the order under `ORDER`, entry n under `AUDIT#<n>` (zero-padded,
// so the trail reads oldest first with one Query). gsi1 lists a buyer's orders, gsi2 a seller's,
// newest first — but only the orders a seller may see: one awaiting approval, or declined, carries no
// gsi2 keys. gsi3 holds an order while it awaits approval, by when its approval expires.
//
// The order item holds attributes the API never shows, and this module owns them: `productSku`
// (copied from the session: the product's key part, so that a cancellation can give the units back),
// `auditCount`, the number of its audit entries, and `spend`, what it charged its key's spend counters
// (./spend-counters.ts), given back when it is cancelled or declined. Reads hand out the order as the
// API shows it, with the stored item kept where only this module reaches it (StoredOrder). Every change
// rewrites the order on the condition that its status and count are the ones read, and puts entry
// count+1 in the same transaction: of racing changes exactly one lands, and the trail has no gap and
// no duplicate. Access patterns: docs/data-model.md.
import * as z from '../schemas/zod.ts';
import { AuditEntry, Order, OrderItemLine, type NegotiationSession } from '../schemas/trade.ts';
import { defineEntity } from './entity.ts';
import { where } from './expressions.ts';
import { refusedNegotiation, tradedProductKey, type StoredNegotiation } from './negotiations.ts';
import { ProductEntity, type ProductItem } from './products.ts';
import { chargeOperation, refundOperations, type KeySpendItem, type SpendCharge } from './spend-counters.ts';
import { transactWrite, TransactionRefused, type TransactOperation } from './transactions.ts';

/** Statuses in which the seller does not see the order: it never existed for the seller unless approved. */
export const HIDDEN_FROM_SELLER: readonly string[] = ['awaiting_approval', 'declined'];

/** The due-work partition of orders awaiting approval (gsi3), sorted by when their approval expires. */
const APPROVAL_PARTITION = 'DUE#ORDER_APPROVAL';

export const OrderEntity = defineEntity({
  name: 'order',
  schema: z.extend(Order, {
    /** The order's lines; a line's sku is absent from orders stored before it was shown, which read it from productSku. */
    items: z.array(z.extend(OrderItemLine, { sku: z.optional(z.string()), title: z.optional(z.nullable(z.string())) })),
    /** The product's key part (seller + sku): cancelling gives its quantity back. */
    productSku: z.string(),
    /** How many audit entries the order has: the sequence of the last one. */
    auditCount: z.int().check(z.gte(1)),
    /** What the order charged its restricted key's spend counters; absent when the key counts no spend. */
    spend: z.optional(z.object({ keyId: z.string(), currency: z.string(), amount: z.int(), day: z.string(), month: z.string() })),
  }),
  key: ({ orderId }: { orderId: string }) => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' }),
  indexKeys: (order) => ({
    gsi1pk: `BUYER#${order.buyerId}#ORDERS`,
    gsi1sk: order.orderId,
    ...(HIDDEN_FROM_SELLER.includes(order.status) ? {} : { gsi2pk: `SELLER#${order.sellerId}#ORDERS`, gsi2sk: order.orderId }),
    ...(order.status === 'awaiting_approval' && order.approval ? { gsi3pk: APPROVAL_PARTITION, gsi3sk: `${order.approval.expiresAt}#${order.orderId}` } : {}),
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
  const { productSku, auditCount: _count, spend: _spend, ...order } = item;
  return { ...order, items: order.items.map((line) => ({ ...line, sku: line.sku ?? productSku, title: line.title ?? null })) };
}

const stored = (item: OrderItem): StoredOrder => ({ order: toOrder(item), [ITEM]: item });

export async function getOrder(orderId: string): Promise<StoredOrder | undefined> {
  const item = await OrderEntity.get({ orderId }, { consistent: true });
  return item && stored(item);
}

function auditEntryOperation(item: OrderItem, entry: AuditRecord): TransactOperation {
  const sequence = item.auditCount;
  return AuditEntryEntity.putOperation('audit', { ...entry, orderId: item.orderId, sequence }, { orderId: item.orderId, sequence }, where.notExists('pk'));
}

/** The units an order's lines hold: what placing it takes from the product's stock, and cancelling gives back. */
const unitsOf = (order: Pick<Order, 'items'> | Pick<OrderItem, 'items'>): number => order.items.reduce((units, line) => units + line.quantity, 0);

/**
 * Takes `quantity` units out of (negative: gives them back to) the product's availableQuantity; taking
 * is refused (as operation `stock`) when fewer are left.
 */
function changeStockOperation(product: { sellerId: string; sku: string }, quantity: number, now: Date, shipsFrom?: readonly string[]): TransactOperation {
  const taking = quantity > 0;
  const { and, ge, in: oneOf } = ProductEntity.where;
  return ProductEntity.updateOperation(
    'stock',
    product,
    { add: { availableQuantity: -quantity }, set: { updatedAt: now.toISOString() } },
    {
      allow: ['availableQuantity', 'updatedAt'],
      condition: taking ? and(where.exists('pk'), ge('availableQuantity', quantity), shipsFrom ? oneOf('shipsFrom', shipsFrom) : undefined) : where.exists('pk'),
    },
  );
}

/** What the buyer's key allows the order, checked in the order's own transaction. */
export interface OrderGuard {
  /** Charged to the key's day and month counters, each within its limit when it has one. */
  charge?: { spend: SpendCharge; dayLimit?: number | undefined; monthLimit?: number | undefined } | undefined;
  /** The product must ship from one of these countries (refused as `stock`, with the product as it is). */
  shipsFrom?: readonly string[] | undefined;
}

/**
 * Placing an order from a session: the order (`order`, if no order has its id, with the session's
 * product and audit entry 1), its first audit entry (`audit`), its units taken from the product the
 * session trades (`stock`, refused when fewer are left or, with `guard.shipsFrom`, when the product
 * ships from elsewhere) and its charge to the key's spend counters (`spend-day`, `spend-month`,
 * refused when over the limit).
 */
export function placeOrderOperations(order: Order, from: StoredNegotiation, entry: AuditRecord, now: Date, guard: OrderGuard = {}): TransactOperation[] {
  const product = tradedProductKey(from);
  const charge = guard.charge;
  const item: OrderItem = { ...order, productSku: product.sku, auditCount: 1, ...(charge ? { spend: charge.spend } : {}) };
  return [
    OrderEntity.putOperation('order', item, { orderId: order.orderId }, where.notExists('pk')),
    auditEntryOperation(item, entry),
    changeStockOperation(product, unitsOf(order), now, guard.shipsFrom),
    ...(charge ? [chargeOperation(charge.spend, 'day', charge.dayLimit, now), chargeOperation(charge.spend, 'month', charge.monthLimit, now)] : []),
  ];
}

/**
 * A change of an order as read: `next` (`order`, on the condition that the stored status and audit
 * count are still the ones read), the next audit entry (`audit`) and, with `restock`, the order's units
 * given back to its product (`stock`) and its charge given back to its key's spend counters.
 */
export function changeOrderOperations(read: StoredOrder, next: Order, entry: AuditRecord, options: { restock: boolean }, now: Date): TransactOperation[] {
  const previous = read[ITEM];
  const { spend } = previous;
  const item: OrderItem = { ...next, productSku: previous.productSku, auditCount: previous.auditCount + 1, ...(spend ? { spend } : {}) };
  const { and, eq } = OrderEntity.where;
  const operations = [
    OrderEntity.putOperation('order', item, { orderId: next.orderId }, and(eq('status', previous.status), eq('auditCount', previous.auditCount))),
    auditEntryOperation(item, entry),
  ];
  const units = unitsOf(previous);
  if (options.restock && units > 0) operations.push(changeStockOperation({ sellerId: previous.sellerId, sku: previous.productSku }, -units, now));
  if (options.restock && spend) operations.push(...refundOperations(spend, now));
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
  /** The key's spend counter of the period as it was, when its limit refused the charge (undefined: nothing refused; spent 0 when it did not exist). */
  spendRefusal(period: 'day' | 'month'): { spent: number } | undefined {
    const name = `spend-${period}`;
    if (!this.refusal.has(name)) return undefined;
    return { spent: this.refusal.current<KeySpendItem>(name)?.spent ?? 0 };
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

/** Orders awaiting approval whose approval has expired at `now`, soonest first (the due-work index). */
export async function listExpiredApprovals(now: Date, limit: number): Promise<StoredOrder[]> {
  const page = await OrderEntity.query({ index: 'gsi3', partition: APPROVAL_PARTITION, sortKey: { lessThan: `${now.toISOString()}~` }, limit });
  return page.items.map(stored);
}
