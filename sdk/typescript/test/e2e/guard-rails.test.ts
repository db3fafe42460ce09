// The built SDK, imported by its package name, against the local runtime: an owner gives a program a
// restricted key with a daily budget and approval above a threshold; the program previews, orders,
// meets SpendingLimitError and InsufficientScopeError; the owner approves with the main key.
import { randomBytes } from 'node:crypto';
import { InsufficientScopeError, Marketplace, SpendingLimitError, type SearchItem } from '@agent-marketplace/sdk';
import { describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');
const organization = { legalName: 'Acme GmbH', country: 'DE' };
const uniqueWord = () => `sdk${randomBytes(5).toString('hex').replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)] as string)}`;

describe('restricted keys, limits and approvals through the SDK', () => {
  it('gives a program a key with a budget, previews and places orders with it, and approves the large one with the main key', async () => {
    const word = uniqueWord();
    const anonymous = new Marketplace({ baseUrl });
    const sellerAgent = await anonymous.agents.register({ name: 'Seller bot', role: 'seller', organization, contactEmail: 'sales@acme.example' });
    const ownerAgent = await anonymous.agents.register({ name: 'Acme owner', role: 'buyer', organization, contactEmail: 'owner@acme.example' });
    const seller = anonymous.withApiKey(sellerAgent.apiKey);
    const owner = anonymous.withApiKey(ownerAgent.apiKey);
    const csv = `sku,title,price,currency,available_quantity,min_order_quantity,auto_accept_price\nSKU-${word},${word} safety boots,100.00,EUR,100,1,100.00\n`;
    expect((await seller.feeds.waitUntilDone((await seller.feeds.upload({ csv })).feedId)).status).toBe('completed');

    const key = await owner.keys.create({
      name: 'Reorder bot',
      scopes: ['catalog:read', 'negotiations:write', 'orders:write'],
      limits: { spendPerDay: { amount: 50000, currency: 'EUR' }, approvalAbove: { amount: 20000, currency: 'EUR' } },
    });
    expect(key).toMatchObject({ kind: 'restricted', status: 'active', apiKey: expect.stringMatching(/^mk_test_/) });
    const keys = await owner.keys.list();
    expect(keys.items.map((item) => item.kind)).toEqual(['main', 'restricted']);
    const program = anonymous.withApiKey(key.apiKey);

    let hit: SearchItem | undefined;
    for (let tries = 0; !hit && tries < 60; tries += 1) {
      hit = (await program.search.query({ query: word })).items[0];
      if (!hit) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const deal = (quantity: number) => program.negotiations.start({ offerId: hit!.offer.offerId, quantity });
    const small = await deal(2);
    expect(small.status).toBe('accepted');
    const preview = await program.orders.preview({ sessionId: small.sessionId });
    expect(preview).toMatchObject({ dryRun: true, status: 'pending', totalAmount: { amount: 20000, currency: 'EUR' }, limits: { spendPerDay: { remaining: { amount: 50000, currency: 'EUR' } } } });
    expect((await program.orders.create({ sessionId: small.sessionId })).status).toBe('pending');

    const large = await program.orders.create({ sessionId: (await deal(3)).sessionId });
    expect(large).toMatchObject({ status: 'awaiting_approval', approval: { keyId: key.keyId, keyName: 'Reorder bot' } });
    const over = await program.orders.create({ sessionId: (await deal(1)).sessionId }).catch((error: unknown) => error);
    expect(over).toBeInstanceOf(SpendingLimitError);
    expect((over as SpendingLimitError).limits).toEqual(['spendPerDay']);
    const own = await program.orders.approve(large.orderId).catch((error: unknown) => error);
    expect(own).toBeInstanceOf(InsufficientScopeError);
    expect((own as InsufficientScopeError).scope).toBe('main');
    await expect(program.keys.list()).rejects.toBeInstanceOf(InsufficientScopeError);

    const approved = await owner.orders.approve(large.orderId);
    expect(approved).toMatchObject({ status: 'pending', approval: { decision: 'approved' } });
    expect((await seller.orders.get(large.orderId)).status).toBe('pending');
    const revoked = await owner.keys.revoke(key.keyId);
    expect(revoked.status).toBe('revoked');
  });
});
