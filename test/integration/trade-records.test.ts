// Orders and negotiation sessions against DynamoDB Local: their storage-only attributes (the traded
// product's sku, the session's version, the order's audit count) are written and conditioned on by the
// data layer alone; reads give the records as the API shows them, and a write computed from a stale
// read is refused.
import { describe, expect, it } from 'vitest';
import { getNegotiation, getTradedProduct, NegotiationChanged, NegotiationEntity, newNegotiationOperation, replaceNegotiationOperation, writeNegotiation } from '../../shared/data/negotiations.ts';
import { AuditEntryEntity, changeOrderOperations, getOrder, listAuditEntries, OrderEntity, placeOrderOperations, TradeRefused, writeTrade, type AuditRecord } from '../../shared/data/orders.ts';
import { ProductEntity, type ProductItem } from '../../shared/data/products.ts';
import { newId } from '../../shared/ids.ts';
import type { NegotiationSession, Order } from '../../shared/schemas/trade.ts';

const now = new Date('2026-11-22T10:00:00.000Z');
const at = now.toISOString();

async function storedProduct(availableQuantity: number): Promise<ProductItem> {
  const sellerId = newId('agent');
  const product: ProductItem = {
    productId: newId('product'),
    sellerId,
    sku: `SKU-${sellerId.slice(-8)}`,
    title: 'Copper wire',
    description: null,
    category: null,
    brand: null,
    attributes: {},
    unit: 'each',
    packSize: 1,
    price: { amount: 100, currency: 'USD' },
    availableQuantity,
    minOrderQuantity: 1,
    leadTimeDays: 1,
    shipsFrom: null,
    imageUrls: [],
    status: 'active',
    sourceFeedId: null,
    createdAt: at,
    updatedAt: at,
    standingOfferId: newId('offer'),
    sourceAttempt: null,
    sourceRow: null,
  };
  return ProductEntity.put(product, product);
}

function sessionOf(product: ProductItem, status: NegotiationSession['status'], quantity = 3): NegotiationSession {
  const move = { round: 1, by: 'buyer' as const, action: 'propose' as const, unitPrice: 90, quantity, message: null, automatic: false, at };
  return {
    sessionId: newId('negotiation'),
    offerId: product.standingOfferId,
    productId: product.productId,
    sku: product.sku,
    title: product.title,
    buyerId: newId('agent'),
    sellerId: product.sellerId,
    status,
    currency: 'USD',
    quantity,
    unitPrice: 90,
    turn: status === 'open' ? 'seller' : null,
    round: 1,
    maxRounds: 20,
    history: [move],
    expiresAt: status === 'open' ? '2026-11-25T10:00:00.000Z' : null,
    acceptedAt: status === 'accepted' ? at : null,
    orderId: null,
    createdAt: at,
    updatedAt: at,
  };
}

const entry = (action: AuditRecord['action'], fromStatus: Order['status'] | null, toStatus: Order['status']): AuditRecord => ({
  entryId: newId('audit'),
  at,
  actor: 'system',
  action,
  fromStatus,
  toStatus,
  details: {},
});

describe('negotiation sessions', () => {
  it('are stored with the traded product’s sku and a version the API never shows; a write from a stale read is refused', async () => {
    const product = await storedProduct(10);
    const session = sessionOf(product, 'open');
    await writeNegotiation([newNegotiationOperation(session, product)]);

    const read = (await getNegotiation(session.sessionId))!;
    expect(read.session).toEqual(session);
    expect(Object.keys(read)).toEqual(['session']);
    expect(await NegotiationEntity.get({ sessionId: session.sessionId })).toEqual({ ...session, productSku: product.sku, version: 1 });
    expect(await getTradedProduct(read)).toEqual(product);

    const countered = { ...session, unitPrice: 95, turn: 'buyer' as const };
    await writeNegotiation([replaceNegotiationOperation(read, countered)]);
    expect(await NegotiationEntity.get({ sessionId: session.sessionId })).toEqual({ ...countered, productSku: product.sku, version: 2 });

    // The same read again: the version moved on, so the write is refused and the session as it is now is reported.
    const refused = await writeNegotiation([replaceNegotiationOperation(read, { ...session, status: 'rejected', turn: null })]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NegotiationChanged);
    expect((refused as NegotiationChanged).current).toEqual(countered);
    expect(await NegotiationEntity.get({ sessionId: session.sessionId })).toMatchObject({ status: 'open', unitPrice: 95, version: 2 });
  });

  it('refuse a new session under an id that exists, or trading another seller’s product', async () => {
    const product = await storedProduct(10);
    const session = sessionOf(product, 'open');
    await writeNegotiation([newNegotiationOperation(session, product)]);
    await expect(writeNegotiation([newNegotiationOperation({ ...session, unitPrice: 1 }, product)])).rejects.toBeInstanceOf(NegotiationChanged);
    const elsewhere = await storedProduct(10);
    expect(() => newNegotiationOperation({ ...session, sessionId: newId('negotiation') }, elsewhere)).toThrow(/not the product's seller/);
  });
});

describe('orders', () => {
  async function accepted(availableQuantity: number, quantity: number) {
    const product = await storedProduct(availableQuantity);
    const session = sessionOf(product, 'accepted', quantity);
    await writeNegotiation([newNegotiationOperation(session, product)]);
    const read = (await getNegotiation(session.sessionId))!;
    const order: Order = {
      orderId: newId('order'),
      sessionId: session.sessionId,
      offerId: session.offerId,
      buyerId: session.buyerId,
      sellerId: session.sellerId,
      items: [{ productId: product.productId, sku: product.sku, title: product.title, quantity, unitPrice: 90 }],
      totalAmount: { amount: quantity * 90, currency: 'USD' },
      status: 'pending',
      shipping: null,
      cancellation: null,
      buyerReference: null,
      shippingAddress: null,
      createdAt: at,
      updatedAt: at,
    };
    return { product, read, order };
  }

  const stock = async (product: ProductItem) => (await ProductEntity.get(product))!.availableQuantity;
  const trail = async (orderId: string) => (await listAuditEntries(orderId, { limit: 10 })).items.map((item) => [item.sequence, item.action]);

  it('are placed with audit entry 1 and their units taken from the session’s product; each change adds the next entry; a cancellation gives the units back', async () => {
    const { product, read, order } = await accepted(10, 3);
    await writeTrade(placeOrderOperations(order, read, entry('create', null, 'pending'), now));
    expect(await OrderEntity.get({ orderId: order.orderId })).toEqual({ ...order, productSku: product.sku, auditCount: 1 });
    expect(await stock(product)).toBe(7);

    const placed = (await getOrder(order.orderId))!;
    expect(placed.order).toEqual(order);
    expect(Object.keys(placed)).toEqual(['order']);
    const confirmed: Order = { ...order, status: 'confirmed' };
    await writeTrade(changeOrderOperations(placed, confirmed, entry('confirm', 'pending', 'confirmed'), { restock: false }, now));
    expect(await stock(product)).toBe(7);

    const cancelled: Order = { ...confirmed, status: 'cancelled', cancellation: { by: 'buyer', reason: null, at } };
    await writeTrade(changeOrderOperations((await getOrder(order.orderId))!, cancelled, entry('cancel', 'confirmed', 'cancelled'), { restock: true }, now));
    expect(await stock(product)).toBe(10);
    expect(await trail(order.orderId)).toEqual([[1, 'create'], [2, 'confirm'], [3, 'cancel']]);
    expect(await AuditEntryEntity.get({ orderId: order.orderId, sequence: 3 })).toMatchObject({ orderId: order.orderId, sequence: 3, action: 'cancel' });
    expect(await OrderEntity.get({ orderId: order.orderId })).toEqual({ ...cancelled, productSku: product.sku, auditCount: 3 });
  });

  it('refuse a change computed from a stale read: nothing is written, the units are given back once', async () => {
    const { product, read, order } = await accepted(10, 4);
    await writeTrade(placeOrderOperations(order, read, entry('create', null, 'pending'), now));
    const stale = (await getOrder(order.orderId))!;
    const cancelled: Order = { ...order, status: 'cancelled', cancellation: { by: 'seller', reason: null, at } };
    await writeTrade(changeOrderOperations(stale, cancelled, entry('cancel', 'pending', 'cancelled'), { restock: true }, now));

    const again = await writeTrade(changeOrderOperations(stale, cancelled, entry('cancel', 'pending', 'cancelled'), { restock: true }, now)).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(TradeRefused);
    expect((again as TradeRefused).refusal.has('order')).toBe(true);
    expect((again as TradeRefused).refusal.has('audit')).toBe(true);
    expect(await stock(product)).toBe(10);
    expect(await trail(order.orderId)).toEqual([[1, 'create'], [2, 'cancel']]);
  });

  it('are refused (as `stock`, with the product as it was) when the product has fewer units left', async () => {
    const { product, read, order } = await accepted(2, 3);
    const refused = await writeTrade(placeOrderOperations(order, read, entry('create', null, 'pending'), now)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TradeRefused);
    expect((refused as TradeRefused).refusal.has('stock')).toBe(true);
    expect((refused as TradeRefused).product?.availableQuantity).toBe(2);
    expect(await getOrder(order.orderId)).toBeUndefined();
    expect(await stock(product)).toBe(2);
  });
});
