// Trade helpers for end-to-end tests: a seller with one listed product and its standing offer, a buyer,
// and the HTTP calls of negotiating and ordering.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { registerUnlimited, waitForFeed } from './catalog.ts';
import type { TestClient, TestResponse } from './http-client.ts';

export interface Listing {
  seller: { agentId: string; apiKey: string };
  sku: string;
  productId: string;
  offerId: string;
}

/** A new seller whose one product (JSON feed row, overridable) is listed; its product and offer ids. */
export async function listProduct(client: TestClient, row: Record<string, unknown> = {}, seller?: { agentId: string; apiKey: string }): Promise<Listing> {
  const owner = seller ?? (await registerUnlimited(client, 'seller'));
  const sku = `TRD-${randomBytes(4).toString('hex')}`;
  const product = { sku, title: 'Nitrile gloves, box of 100', price: { amount: 1000, currency: 'USD' }, availableQuantity: 500, minOrderQuantity: 10, ...row };
  const upload = await client.send('POST', '/v1/seller/feeds', { apiKey: owner.apiKey, body: { products: [product] } });
  expect(upload.status, upload.text).toBe(202);
  const feed = await waitForFeed(client, owner.apiKey, upload.json.data.feedId);
  expect(feed, JSON.stringify(feed.errors)).toMatchObject({ status: 'completed', rowsFailed: 0 });
  const listed = await client.get(`/v1/seller/products?sku=${sku}`, { apiKey: owner.apiKey });
  expect(listed.status, listed.text).toBe(200);
  const item = listed.json.data.items[0];
  return { seller: owner, sku, productId: item.productId, offerId: item.offers[0].offerId };
}

export function negotiate(client: TestClient, apiKey: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<TestResponse> {
  return client.send('POST', '/v1/negotiate', { apiKey, body, ...(headers ? { headers } : {}) });
}

export function move(client: TestClient, apiKey: string, sessionId: string, action: 'counter' | 'accept' | 'reject', body?: Record<string, unknown>): Promise<TestResponse> {
  const path = action === 'counter' ? `/v1/negotiate/${sessionId}` : `/v1/negotiate/${sessionId}/${action}`;
  return client.send('POST', path, { apiKey, ...(body ? { body } : {}) });
}

export function orderAction(client: TestClient, apiKey: string, orderId: string, action: string, body?: Record<string, unknown>): Promise<TestResponse> {
  return client.send('POST', `/v1/orders/${orderId}/${action}`, { apiKey, ...(body ? { body } : {}) });
}

/** The product's availableQuantity as anyone reads it. */
export async function availableQuantity(client: TestClient, apiKey: string, productId: string): Promise<number> {
  const response = await client.get(`/v1/products/${productId}`, { apiKey });
  expect(response.status, response.text).toBe(200);
  return response.json.data.availableQuantity as number;
}

/** An accepted session of `buyer` on the listing at the list price (the seller accepts by hand). */
export async function acceptedSession(client: TestClient, listing: Listing, buyer: { apiKey: string }, quantity = 20): Promise<string> {
  const started = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity });
  expect(started.status, started.text).toBe(201);
  const sessionId = started.json.data.sessionId as string;
  const accepted = await move(client, listing.seller.apiKey, sessionId, 'accept');
  expect(accepted.status, accepted.text).toBe(200);
  return sessionId;
}

/** A word no other test's catalog has: the prefix and random letters only (search tokenizes digits apart). */
export function uniqueWord(prefix: string, bytes = 4): string {
  return `${prefix}${randomBytes(bytes).toString('hex').replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)] as string)}`;
}
