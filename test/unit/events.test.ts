// The events feed's pure rules: its key ranges, the settle delay, the re-read backoff, event types and
// their schemas, the type filter.
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../shared/data/events.ts';
import { FOLLOW_SETTLE_MS, followFrom, keptSince, pollDelayMs, settledCount } from '../../shared/domain/events.ts';
import { deliveryName } from '../../shared/domain/webhook-fan-out.ts';
import { idTime, idTimePrefix, newId } from '../../shared/ids.ts';
import { EVENT_DATA_SCHEMAS, EVENT_TYPES, RECORDED_EVENT_TYPES, recordedTypeOf } from '../../shared/schemas/event-data.ts';
import { Event, ListEventsQuery } from '../../shared/schemas/events.ts';

const DAY = 24 * 60 * 60 * 1000;
const now = Date.parse('2026-11-22T10:00:00.000Z');
const idAt = (ms: number) => `${idTimePrefix('event', ms)}${'Q'.repeat(16)}`;
const eventAt = (ms: number): DomainEvent => ({ eventId: idAt(ms), type: 'order.confirmed', data: {}, agentIds: ['agt_a'], occurredAt: new Date(ms).toISOString() });

describe('event ids as positions in time', () => {
  it('sorts every id of a moment between that moment’s prefix and the next', () => {
    const id = newId('event');
    expect(idTime(id)).toBeLessThanOrEqual(Date.now());
    expect(idTimePrefix('event', idTime(id)) < id).toBe(true);
    expect(id < idTimePrefix('event', idTime(id) + 1)).toBe(true);
  });

  it('keeps 30 days: an event of 30 days and a millisecond ago is outside the window', () => {
    expect(idAt(now - 30 * DAY) >= keptSince(now)).toBe(true);
    expect(idAt(now - 30 * DAY - 1) >= keptSince(now)).toBe(false);
  });

  it('follows strictly after the given id, and never from before the window', () => {
    const after = idAt(now - DAY);
    const from = followFrom(after, now);
    expect(after < from).toBe(true);
    // The next id in sort order, even one of the same millisecond, is inside the range.
    expect(`${idTimePrefix('event', now - DAY)}${'Q'.repeat(15)}R` >= from).toBe(true);
    expect(idAt(now - DAY + 1) >= from).toBe(true);
    expect(followFrom(idAt(now - 40 * DAY), now)).toBe(keptSince(now));
    expect(followFrom('evt_00000000000000000000000000', now)).toBe(keptSince(now));
  });
});

describe('the settle delay', () => {
  it('shows a follower the events older than the delay, in order, and holds back the rest', () => {
    const events = [eventAt(now - 2_000), eventAt(now - FOLLOW_SETTLE_MS - 1), eventAt(now - FOLLOW_SETTLE_MS + 1), eventAt(now)];
    expect(settledCount(events, now)).toBe(2);
    expect(settledCount(events.slice(0, 2), now)).toBe(2);
    expect(settledCount(events.slice(2), now)).toBe(0);
    expect(settledCount([], now)).toBe(0);
  });

  it('re-reads a held request sooner than the delay, with backoff', () => {
    expect([0, 1, 2, 3, 10].map(pollDelayMs)).toEqual([100, 200, 400, 400, 400]);
    expect(Math.max(...[0, 1, 2, 3].map(pollDelayMs))).toBeLessThan(FOLLOW_SETTLE_MS);
  });
});

describe('event types and their schemas', () => {
  it('records each alias pair under its second name', () => {
    expect(recordedTypeOf('negotiation.offer')).toBe('negotiation.counter');
    expect(recordedTypeOf('feed.processed')).toBe('feed.completed');
    expect(recordedTypeOf('order.created')).toBe('order.created');
    // The specification's 14 names, less the two aliases, the two of approvals, webhook.disabled and the four of requests for quotes.
    expect(RECORDED_EVENT_TYPES).toHaveLength(19);
    expect(RECORDED_EVENT_TYPES).not.toContain('negotiation.offer');
  });

  it('declares data for every name and the test event; aliases share their pair’s schema', () => {
    expect(Object.keys(EVENT_DATA_SCHEMAS).sort()).toEqual([...EVENT_TYPES, 'webhook.test'].sort());
    expect(EVENT_DATA_SCHEMAS['negotiation.offer']).toBe(EVENT_DATA_SCHEMAS['negotiation.counter']);
    expect(EVENT_DATA_SCHEMAS['feed.processed']).toBe(EVENT_DATA_SCHEMAS['feed.completed']);
  });

  it('never lets a seller-private price into a payload', () => {
    for (const [type, schema] of Object.entries(EVENT_DATA_SCHEMAS)) {
      expect(Object.keys(schema.shape), type).not.toContain('floorUnitPrice');
      expect(Object.keys(schema.shape), type).not.toContain('autoAcceptUnitPrice');
    }
  });

  it('tells the feed’s envelopes apart by type', () => {
    const envelope = { id: idAt(now), type: 'feed.completed', timestamp: new Date(now).toISOString() };
    const data = { feedId: 'feed_1', sellerId: 'agt_s', status: 'completed', format: 'csv', filename: null, rowsTotal: 1, rowsSucceeded: 1, rowsFailed: 0, completedAt: new Date(now).toISOString() };
    expect(Event.safeParse({ ...envelope, data }).success).toBe(true);
    expect(Event.safeParse({ ...envelope, type: 'feed.failed', data }).success).toBe(false);
    expect(Event.safeParse({ ...envelope, type: 'feed.processed', data }).success).toBe(false);
  });
});

describe('the name a subscription receives an event under', () => {
  it('is the canonical name for *, the canonical name or both names of a pair; the alias only when named alone', () => {
    expect(deliveryName('negotiation.counter', ['*'])).toBe('negotiation.counter');
    expect(deliveryName('negotiation.counter', ['negotiation.counter'])).toBe('negotiation.counter');
    expect(deliveryName('negotiation.counter', ['negotiation.offer', 'negotiation.counter'])).toBe('negotiation.counter');
    expect(deliveryName('negotiation.counter', ['negotiation.offer'])).toBe('negotiation.offer');
    expect(deliveryName('feed.completed', ['feed.processed', 'order.created'])).toBe('feed.processed');
    expect(deliveryName('feed.completed', ['*', 'feed.processed'])).toBe('feed.completed');
    expect(deliveryName('feed.completed', ['feed.failed'])).toBeUndefined();
    expect(deliveryName('order.created', ['*'])).toBe('order.created');
    expect(deliveryName('order.created', ['order.shipped'])).toBeUndefined();
  });

  it('is what the events feed shows for every recorded type under *', () => {
    for (const type of RECORDED_EVENT_TYPES) expect(deliveryName(type, ['*'])).toBe(type);
  });
});

describe('?type=', () => {
  const parse = (type: string) => ListEventsQuery.safeParse({ type });

  it('takes names and aliases, repeated (joined with commas) or comma-separated, as recorded names once each', () => {
    expect(parse('negotiation.offer').data?.type).toEqual(['negotiation.counter']);
    expect(parse('negotiation.offer,negotiation.counter,order.created').data?.type).toEqual(['negotiation.counter', 'order.created']);
  });

  it('names what it does not know', () => {
    const result = parse('order.created,order.nope,*');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^Unknown event type "order\.nope", "\*": Must be event type names/);
  });
});
