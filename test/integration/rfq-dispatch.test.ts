// Sending a request for quotes to its sellers, against DynamoDB Local: one run at a time (the lease), a
// run repeated after it finished does nothing, and a run that takes over from one that died part way
// writes only the events still missing, under the ids the recipients hold — each seller gets rfq.created
// once (docs/decisions/rfq-dispatch.md).
import { describe, expect, it } from 'vitest';
import { eventPutRequest, listEventsOf } from '../../shared/data/events.ts';
import { claimDispatch, getRfq, listRecipients, newRfqOperation, recipientPutRequest, replaceRfqOperation, transactWrite, writeAll, type RfqItem } from '../../shared/data/rfqs.ts';
import { dispatchRfq } from '../../shared/domain/rfqs.ts';
import { newId } from '../../shared/ids.ts';

/** rfq.created events of this RFQ in each seller's events feed. */
async function createdEvents(sellerIds: readonly string[], rfqId: string) {
  const feeds = await Promise.all(
    sellerIds.map(async (sellerId) => (await listEventsOf('seller', sellerId, { from: 'evt_', to: 'evt_~', ascending: true, limit: 100, types: ['rfq.created'] })).events.filter((event) => event.data.rfqId === rfqId)),
  );
  return feeds;
}

/** An RFQ inviting these sellers, written with a dispatch lease that the stream worker cannot take while the test sets up. */
async function invitingRfq(sellerIds: string[], leaseUntil: Date): Promise<RfqItem> {
  const at = new Date().toISOString();
  const rfqId = newId('rfq');
  await transactWrite([
    newRfqOperation({
      rfqId, buyerId: newId('agent'), status: 'open', title: 'Nitrile gloves', description: null, category: null, keywords: [], quantity: 10, unit: null, currency: 'EUR',
      maxUnitPrice: null, shipsFrom: [], deliverBy: null, shipTo: null, closesAt: new Date(Date.now() + 3_600_000).toISOString(), invitedSellerIds: sellerIds, sellerCount: null,
      awardedQuoteId: null, sessionId: null, cancellationReason: null, closedAt: null, createdAt: at, updatedAt: at, dispatchLeaseUntil: leaseUntil.toISOString(),
    }),
  ]);
  return (await getRfq(rfqId)) as RfqItem;
}

describe('sending a request for quotes to its sellers', () => {
  it('waits while another run holds the lease, then sends each seller one rfq.created; a run after it does nothing', async () => {
    const sellers = [newId('agent'), newId('agent'), newId('agent')];
    const rfq = await invitingRfq(sellers, new Date(Date.now() + 60_000));
    expect(await claimDispatch(rfq, new Date())).toBeUndefined();
    expect(await dispatchRfq(rfq.rfqId, new Date())).toEqual({ sent: 0, told: 0 });
    expect((await createdEvents(sellers, rfq.rfqId)).map((events) => events.length)).toEqual([0, 0, 0]);

    // The lease has passed (its holder died): the next run takes over.
    const later = new Date(Date.now() + 61_000);
    expect(await dispatchRfq(rfq.rfqId, later)).toEqual({ sent: 3, told: 0 });
    expect((await createdEvents(sellers, rfq.rfqId)).map((events) => events.length)).toEqual([1, 1, 1]);
    expect(await getRfq(rfq.rfqId)).toMatchObject({ sellerCount: 3, matchedAt: later.toISOString() });
    expect(await getRfq(rfq.rfqId)).not.toHaveProperty('dispatchLeaseUntil');

    expect(await dispatchRfq(rfq.rfqId, new Date(Date.now() + 62_000))).toEqual({ sent: 0, told: 0 });
    expect((await createdEvents(sellers, rfq.rfqId)).map((events) => events.length)).toEqual([1, 1, 1]);
  });

  it('takes over a run that died part way: only the missing events are written, under the ids the recipients hold', async () => {
    const sellers = [newId('agent'), newId('agent')];
    const rfq = await invitingRfq(sellers, new Date(Date.now() + 60_000));
    // The run that died wrote both recipients and the first seller's event only.
    const at = new Date();
    const recipients = sellers.map((sellerId) => ({ rfqId: rfq.rfqId, sellerId, invited: true, eventId: newId('event'), createdAt: at.toISOString() }));
    const [first] = recipients;
    await writeAll([
      ...recipients.map(recipientPutRequest),
      eventPutRequest({ type: 'rfq.created', data: { rfqId: rfq.rfqId, sellerId: first!.sellerId, title: rfq.title, quantity: rfq.quantity, currency: rfq.currency, maxUnitPrice: null, closesAt: rfq.closesAt, invited: true }, agentIds: [first!.sellerId] }, at, first!.eventId).request,
    ]);

    expect(await dispatchRfq(rfq.rfqId, new Date(Date.now() + 61_000))).toEqual({ sent: 2, told: 0 });
    const feeds = await createdEvents(sellers, rfq.rfqId);
    expect(feeds.map((events) => events.map((event) => event.eventId))).toEqual(recipients.map((recipient) => [recipient.eventId]));
    expect((await listRecipients(rfq.rfqId)).map((recipient) => recipient.eventId).sort()).toEqual(recipients.map((recipient) => recipient.eventId).sort());
  });

  it('tells every seller but none twice that it was cancelled', async () => {
    const sellers = [newId('agent'), newId('agent')];
    const rfq = await invitingRfq(sellers, new Date(Date.now() + 60_000));
    await dispatchRfq(rfq.rfqId, new Date(Date.now() + 61_000));
    const read = (await getRfq(rfq.rfqId)) as RfqItem;
    const now = new Date(Date.now() + 62_000);
    await transactWrite([replaceRfqOperation(read, { ...read, status: 'cancelled', closedAt: now.toISOString(), updatedAt: now.toISOString() })]);
    const runs = await Promise.all([dispatchRfq(rfq.rfqId, now), dispatchRfq(rfq.rfqId, now)]);
    expect(runs.map((run) => run.told).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2);
    const closed = await Promise.all(sellers.map(async (sellerId) => (await listEventsOf('seller', sellerId, { from: 'evt_', to: 'evt_~', ascending: true, limit: 100, types: ['rfq.closed'] })).events));
    expect(closed.map((events) => events.map((event) => event.data))).toEqual(sellers.map((sellerId) => [{ rfqId: rfq.rfqId, sellerId, status: 'cancelled' }]));
    expect(await getRfq(rfq.rfqId)).toHaveProperty('sellersToldAt');
  });
});
