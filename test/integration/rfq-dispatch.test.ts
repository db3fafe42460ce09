// Sending a request for quotes to its sellers, against DynamoDB Local: one run at a time (the lease), a
// run repeated after it finished does nothing, a run that takes over from one that died part way writes
// only to the sellers not sent it yet, and a run stops writing before its lease can pass — each seller
// gets rfq.created once, which is also its recipient record (docs/decisions/rfq-dispatch.md,
// rfq-recipients-are-events.md).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventEntity, listEventsOf, newEventPutRequest } from '../../shared/data/events.ts';
import { claimDispatch, getRecipient, getRfq, listRecipients, listSellerRecipients, newRfqOperation, replaceRfqOperation, transactWrite, writeAll, type RfqItem } from '../../shared/data/rfqs.ts';
import { dispatchRfq, DispatchLeaseRunningOut } from '../../shared/domain/rfqs.ts';
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

  it('takes over a run that died part way: only the sellers not sent it yet get rfq.created', async () => {
    const sellers = [newId('agent'), newId('agent')];
    const rfq = await invitingRfq(sellers, new Date(Date.now() + 60_000));
    // The run that died sent the first seller its event only.
    const [first] = sellers as [string, string];
    const died = newEventPutRequest({ type: 'rfq.created', data: { rfqId: rfq.rfqId, sellerId: first, title: rfq.title, quantity: rfq.quantity, currency: rfq.currency, maxUnitPrice: null, closesAt: rfq.closesAt, invited: true }, agentIds: [first] }, new Date(), { kept: true });
    await writeAll([died.request]);
    expect(await getRecipient(rfq.rfqId, first)).toMatchObject({ sellerId: first, invited: true, eventId: died.event.eventId });

    expect(await dispatchRfq(rfq.rfqId, new Date(Date.now() + 61_000))).toEqual({ sent: 2, told: 0 });
    const feeds = await createdEvents(sellers, rfq.rfqId);
    expect(feeds.map((events) => events.length)).toEqual([1, 1]);
    expect(feeds[0]?.[0]?.eventId).toBe(died.event.eventId);
    const recipients = await listRecipients(rfq.rfqId);
    expect(recipients.map((recipient) => recipient.sellerId).sort()).toEqual([...sellers].sort());
    expect(recipients.map((recipient) => recipient.eventId).sort()).toEqual(feeds.map((events) => events[0]?.eventId).sort());
    // Each seller's list of RFQs holds it; a stranger's does not.
    for (const sellerId of sellers) expect((await listSellerRecipients(sellerId, { limit: 10 })).items.map((recipient) => recipient.rfqId)).toEqual([rfq.rfqId]);
    expect(await getRecipient(rfq.rfqId, newId('agent'))).toBeUndefined();
    // The recipient records are kept past the events feed's 30 days (the feed's reads stop there); a closing event expires with the feed.
    for (const recipient of recipients) expect(await EventEntity.get({ eventId: recipient.eventId }, { consistent: true })).not.toHaveProperty('expiresAt');
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('stops writing once half its lease has passed, leaving the RFQ to the run that takes over', async () => {
    const sellers = Array.from({ length: 3 }, () => newId('agent'));
    const rfq = await invitingRfq(sellers, new Date(Date.now() + 60_000));
    // Every look at the clock after the claim finds 31 s gone.
    let looks = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (looks++ === 0 ? 1_000 : 32_000));
    await expect(dispatchRfq(rfq.rfqId, new Date(Date.now() + 61_000))).rejects.toBeInstanceOf(DispatchLeaseRunningOut);
    vi.restoreAllMocks();
    expect((await createdEvents(sellers, rfq.rfqId)).map((events) => events.length)).toEqual([0, 0, 0]);
    expect(await getRfq(rfq.rfqId)).toMatchObject({ sellerCount: null });
    // The next run, after that lease, sends them all.
    expect(await dispatchRfq(rfq.rfqId, new Date(Date.now() + 122_000))).toEqual({ sent: 3, told: 0 });
    expect((await createdEvents(sellers, rfq.rfqId)).map((events) => events.length)).toEqual([1, 1, 1]);
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
    for (const events of closed) expect(await EventEntity.get({ eventId: events[0]!.eventId }, { consistent: true })).toHaveProperty('expiresAt');
    expect(await getRfq(rfq.rfqId)).toHaveProperty('sellersToldAt');
  });
});
