// Requests for quotes through the MCP SDK's own Client against POST /mcp of the local runtime: a buyer
// asks with request_quotes, the seller finds it with list_rfqs and answers with submit_quote, the buyer
// compares with list_rfqs {rfqId}, awards with award_quote and orders with place_order {sessionId}.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { registerUnlimited } from '../support/catalog.ts';
import { closedAfterAll, connectHttp, data, toolError } from '../support/mcp.ts';
import { newClient } from '../support/runtime.ts';
import { listProduct, uniqueWord } from '../support/trade.ts';

const http = newClient();
const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

const track = closedAfterAll();

/** The seller's list_rfqs until it holds the RFQ (sellers are reached in the background). */
async function sentTo(client: Client, rfqId: string): Promise<any> {
  for (let tries = 0; tries < 120; tries += 1) {
    const page = await data(client, 'list_rfqs', {});
    const found = page.items.find((item: { rfqId: string }) => item.rfqId === rfqId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${rfqId} never reached the seller`);
}

describe('MCP: requests for quotes, from the request to the order', () => {
  it('a buyer asks, a seller quotes, the buyer compares, awards and orders, with nothing but the tools', async () => {
    const title = `${uniqueWord('rfq')} nitrile gloves`;
    const listing = await listProduct(http, { title });
    const buyer = await registerUnlimited(http, 'buyer');
    const [buyerClient, sellerClient] = await Promise.all([track(connectHttp(buyer.apiKey)), track(connectHttp(listing.seller.apiKey))]);

    const rfq = await data(buyerClient, 'request_quotes', { title, quantity: 50, currency: 'USD', maxUnitPrice: 1200, closesAt: hoursAhead(2), sellerIds: [listing.seller.agentId] });
    expect(rfq).toMatchObject({ rfqId: expect.stringMatching(/^rfq_/), status: 'open', buyerId: buyer.agentId, maxUnitPrice: 1200 });
    // The roles' tools: a seller does not ask for quotes, a buyer does not quote.
    expect(await toolError(sellerClient, 'request_quotes', { title, quantity: 1, currency: 'USD', closesAt: hoursAhead(2) })).toMatchObject({ code: 'auth/forbidden', status: 403 });
    expect(await toolError(buyerClient, 'submit_quote', { rfqId: rfq.rfqId, unitPrice: 900, quantity: 50, leadTimeDays: 3, validUntil: hoursAhead(48) })).toMatchObject({ code: 'auth/forbidden' });

    const seen = await sentTo(sellerClient, rfq.rfqId);
    expect(seen).toMatchObject({ title, status: 'open', quantity: 50, currency: 'USD' });
    expect(seen.quotes).toBeUndefined();
    expect((await data(sellerClient, 'list_rfqs', { rfqId: rfq.rfqId })).items).toEqual([expect.objectContaining({ rfqId: rfq.rfqId, quotes: [] })]);

    // Above the buyer's cap: the API's refusal, on the argument to fix.
    const tooDear = await toolError(sellerClient, 'submit_quote', { rfqId: rfq.rfqId, offerId: listing.offerId, unitPrice: 1300, quantity: 50, leadTimeDays: 3, validUntil: hoursAhead(48) });
    expect(tooDear).toMatchObject({ code: 'validation/invalid', status: 422, details: [expect.objectContaining({ path: 'unitPrice' })] });
    const quote = await data(sellerClient, 'submit_quote', { rfqId: rfq.rfqId, offerId: listing.offerId, unitPrice: 950, quantity: 50, leadTimeDays: 3, validUntil: hoursAhead(48), message: 'From stock' });
    expect(quote).toMatchObject({ quoteId: expect.stringMatching(/^qte_/), rfqId: rfq.rfqId, sellerId: listing.seller.agentId, status: 'submitted', unitPrice: 950, revision: 1 });

    const compared = await data(buyerClient, 'list_rfqs', { rfqId: rfq.rfqId });
    expect(compared.nextCursor).toBeNull();
    expect(compared.items[0].quotes).toEqual([expect.objectContaining({ quoteId: quote.quoteId, unitPrice: 950, leadTimeDays: 3 })]);
    expect((await data(buyerClient, 'list_rfqs', {})).items.map((item: { rfqId: string }) => item.rfqId)).toContain(rfq.rfqId);
    expect(await toolError(buyerClient, 'list_rfqs', { rfqId: rfq.rfqId, status: 'open' })).toMatchObject({ code: 'validation/invalid', details: [{ path: 'status' }] });
    expect(await toolError(buyerClient, 'list_rfqs', { rfqId: 'ord_01JF3Q5Z8X2C7V9B4N6M1K0PQR' })).toMatchObject({ code: 'validation/invalid', details: [{ path: 'rfqId' }] });

    const awarded = await data(buyerClient, 'award_quote', { rfqId: rfq.rfqId, quoteId: quote.quoteId });
    expect(awarded).toMatchObject({ rfqId: rfq.rfqId, status: 'awarded', awardedQuoteId: quote.quoteId, sessionId: expect.stringMatching(/^neg_/) });
    expect(await toolError(buyerClient, 'award_quote', { rfqId: rfq.rfqId, quoteId: quote.quoteId })).toMatchObject({ code: 'conflict', status: 409 });

    const order = await data(buyerClient, 'place_order', { sessionId: awarded.sessionId });
    expect(order).toMatchObject({ orderId: expect.stringMatching(/^ord_/), status: 'pending', totalAmount: { amount: 47_500, currency: 'USD' } });
    // The seller hears that it won: the RFQ names its quote.
    expect((await data(sellerClient, 'list_rfqs', { rfqId: rfq.rfqId })).items[0]).toMatchObject({ status: 'awarded', awardedQuoteId: quote.quoteId });
  });
});
