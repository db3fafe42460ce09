// Rate-limit counters against DynamoDB Local: exact under concurrency, fixed UTC windows.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { consume } from '../../shared/data/rate-limits.ts';

const at = (iso: string) => new Date(iso);

describe('consume', () => {
  it('lets exactly the per-minute limit through when requests race', async () => {
    const subject = `agent#${randomUUID()}`;
    const now = at('2026-11-22T10:15:30.000Z');
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => consume(subject, { perMinute: 10, perDay: 1000 }, now)));
    expect(outcomes.filter((outcome) => outcome.allowed)).toHaveLength(10);
    const denied = outcomes.filter((outcome) => !outcome.allowed);
    expect(denied).toHaveLength(30);
    for (const outcome of denied) expect(outcome.minute.remaining).toBe(0);
    const remaining = outcomes.filter((outcome) => outcome.allowed).map((outcome) => outcome.minute.remaining).sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('starts a new count each UTC minute but keeps the day count', async () => {
    const subject = `agent#${randomUUID()}`;
    const limits = { perMinute: 2, perDay: 5 };
    const minute1 = at('2026-11-22T10:15:59.900Z');
    const minute2 = at('2026-11-22T10:16:00.100Z');
    expect((await consume(subject, limits, minute1)).allowed).toBe(true);
    expect((await consume(subject, limits, minute1)).allowed).toBe(true);
    const third = await consume(subject, limits, minute1);
    expect(third.allowed).toBe(false);
    expect(third.minute.resetAt).toBe(Date.parse('2026-11-22T10:16:00.000Z') / 1000);

    const next = await consume(subject, limits, minute2);
    expect(next.allowed).toBe(true);
    expect(next.minute.remaining).toBe(1);
    expect(next.day.remaining).toBe(2); // 3 counted: the denied request was not
    expect(next.day.resetAt).toBe(Date.parse('2026-11-23T00:00:00.000Z') / 1000);
  });

  it('denies once the day is used up, whatever the minute', async () => {
    const subject = `ip#${randomUUID()}`;
    const limits = { perMinute: 100, perDay: 3 };
    for (const minute of ['10', '11', '12']) {
      expect((await consume(subject, limits, at(`2026-11-22T${minute}:00:00.000Z`))).allowed).toBe(true);
    }
    const denied = await consume(subject, limits, at('2026-11-22T13:00:00.000Z'));
    expect(denied.allowed).toBe(false);
    expect(denied.day.remaining).toBe(0);
    expect((await consume(subject, limits, at('2026-11-23T00:00:01.000Z'))).allowed).toBe(true);
  });

  it('counts a request whose clock is behind in the later minute the item already counts', async () => {
    const subject = `agent#${randomUUID()}`;
    // One container's clock 50 ms into the next minute, then another's 50 ms before it.
    const [ahead, behind] = ['2026-11-22T10:16:00.050Z', '2026-11-22T10:15:59.950Z'].map(at) as [Date, Date];
    const limits = { perMinute: 2, perDay: 10 };
    expect((await consume(subject, limits, ahead)).allowed).toBe(true);
    const late = await consume(subject, limits, behind);
    expect(late.allowed).toBe(true);
    expect(late.minute).toEqual({ limit: 2, remaining: 0, resetAt: Date.parse('2026-11-22T10:17:00.000Z') / 1000 });
    expect(late.day.remaining).toBe(8);
    // The later minute is full now, whichever clock asks.
    expect((await consume(subject, limits, behind)).allowed).toBe(false);
    expect((await consume(subject, limits, ahead)).allowed).toBe(false);
  });

  it('lets exactly the day limit through when requests race across a minute boundary', async () => {
    const subject = `agent#${randomUUID()}`;
    const limits = { perMinute: 1000, perDay: 25 };
    const times = ['2026-11-22T10:15:59.999Z', '2026-11-22T10:16:00.000Z'].map(at);
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => consume(subject, limits, times[i % 2] as Date)));
    expect(outcomes.filter((outcome) => outcome.allowed)).toHaveLength(25);
  });
});
