// The events feed (contract round 3, "Events feed"): the events an agent is a party to, in the webhook
// envelope, for agents that cannot host a webhook receiver. Reads only: every event is already recorded
// with its change (shared/data/events.ts) and listed under its parties there. Newest first by default;
// `after` follows, oldest first, and may hold the request until something new arrives (waitSeconds).
// Decisions: docs/decisions/events-feed-order.md (ordering, retention), events-settle-delay.md,
// event-name-aliases.md and events-long-poll.md (what waiting costs).
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { EVENT_RETENTION_SECONDS, getEvent, listEventsOf, type DomainEvent } from '../data/events.ts';
import { fail } from '../failures.ts';
import { idTime, idTimePrefix } from '../ids.ts';
import type { Role } from '../schemas/agents.ts';
import type { RecordedEventType } from '../schemas/event-data.ts';
import type { Event } from '../schemas/events.ts';

export interface EventsCaller {
  agentId: string;
  role: Role;
}

/**
 * A follower is shown an event once it is this old. Ids are taken when a change is computed, a moment
 * before its transaction commits and before the index shows it, so a newer event can become visible
 * before an older one; a follower that had moved past the older one would never see it. Holding back the
 * last half second lets those settle in order.
 */
export const FOLLOW_SETTLE_MS = 500;

const RETENTION_MS = EVENT_RETENTION_SECONDS * 1000;

/** Re-reads of a held request while nothing is there: 100 ms, doubling, at most 400 ms apart (below FOLLOW_SETTLE_MS, so a new event is seen before it settles). */
export function pollDelayMs(attempt: number): number {
  return Math.min(400, 100 * 2 ** attempt);
}

/** Above every event id: the open end of a range. */
const AFTER_EVERY_ID = 'evt_~';

/** The lowest key of the feed's window: events older than 30 days are never shown, whether or not TTL has deleted them yet. */
export function keptSince(now: number): string {
  return idTimePrefix('event', now - RETENTION_MS);
}

/**
 * The lowest key after `after`: ids have a fixed length, so `after` with any suffix sorts above it and
 * below every later id (the feed's range is inclusive at both ends). Never below the retention window.
 */
export function followFrom(after: string, now: number): string {
  const next = `${after}~`;
  const floor = keptSince(now);
  return next > floor ? next : floor;
}

/** How many of a follow page's events (ascending) have settled; the rest are held back. */
export function settledCount(events: readonly DomainEvent[], now: number): number {
  const bound = idTimePrefix('event', now - FOLLOW_SETTLE_MS);
  const first = events.findIndex((event) => event.eventId >= bound);
  return first === -1 ? events.length : first;
}

export function toEnvelope(event: DomainEvent): Event {
  // The event entity's schema checked data against the type's declared schema when the item was read.
  return { id: event.eventId, type: event.type, timestamp: event.occurredAt, data: event.data } as Event;
}

export interface ListEventsRequest {
  limit: number;
  cursor?: string | undefined;
  after?: string | undefined;
  /** Recorded names (aliases already folded). */
  type?: readonly RecordedEventType[] | undefined;
  waitSeconds?: number | undefined;
}

interface Page {
  items: Event[];
  nextCursor: string | null;
  /** When the first held-back event settles (epoch ms): a held request reads again then. */
  settlesAt?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A page of the caller's events. With waitSeconds, a page that would be empty (following with `after`,
 * or the first newest-first page) is read again, with a short backoff, until something arrives or the
 * time is up; the request counts once against the rate limit however often it reads.
 */
export async function listEventsForCaller(caller: EventsCaller, request: ListEventsRequest): Promise<{ items: Event[]; nextCursor: string | null }> {
  const types = request.type ?? [];
  const scope = ['events', caller.agentId, request.after ?? '', [...types].sort().join(',')].join(':');
  const startKey = decodeCursor(scope, request.cursor);
  const read = async (now: number): Promise<Page> => {
    if (request.after === undefined) {
      const page = await listEventsOf(caller.role, caller.agentId, { from: keptSince(now), to: AFTER_EVERY_ID, ascending: false, limit: request.limit, types, startKey });
      return { items: page.events.map(toEnvelope), nextCursor: encodeCursor(scope, page.lastKey) };
    }
    const page = await listEventsOf(caller.role, caller.agentId, { from: followFrom(request.after, now), to: AFTER_EVERY_ID, ascending: true, limit: request.limit, types, startKey });
    const settled = settledCount(page.events, now);
    if (settled === page.events.length) return { items: page.events.map(toEnvelope), nextCursor: encodeCursor(scope, page.lastKey) };
    // The rest are too recent: this is the head of the feed for now (follow on with after = the last id).
    const first = page.events[settled] as DomainEvent;
    return { items: page.events.slice(0, settled).map(toEnvelope), nextCursor: null, settlesAt: idTime(first.eventId) + FOLLOW_SETTLE_MS };
  };

  // Older events never arrive, so only a follow or a first newest-first page can fill by waiting.
  const waitMs = (request.waitSeconds ?? 0) * 1000;
  const holds = waitMs > 0 && (request.after !== undefined || startKey === undefined);
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    const page = await read(Date.now());
    const now = Date.now();
    if (page.items.length > 0 || !holds || now >= deadline) return { items: page.items, nextCursor: page.nextCursor };
    const wake = page.settlesAt ?? now + pollDelayMs(attempt);
    await sleep(Math.max(1, Math.min(wake, deadline) - now));
  }
}

/** One event of which the caller is a party, kept 30 days; anyone else (and anything older) gets 404. */
export async function getEventForCaller(caller: EventsCaller, eventId: string, now: Date): Promise<Event> {
  const event = await getEvent(eventId);
  if (!event || !event.agentIds.includes(caller.agentId) || idTime(event.eventId) < now.getTime() - RETENTION_MS) throw fail.notFound(`Event ${eventId} not found`);
  return toEnvelope(event);
}
