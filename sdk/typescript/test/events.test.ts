// The events feed against a local server that behaves like GET /v1/events (after, type, limit,
// waitSeconds long polls): list and get, and follow() from a given event, from now, and from nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { Marketplace, type MarketplaceEvent } from '../src/index.ts';
import { ok, scriptedServer, type RecordedRequest, type ScriptedServer } from './support/scripted-server.ts';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An in-memory events feed; `emit` adds an event and wakes waiting long polls. */
async function eventsServer(options: { honourWait?: boolean } = {}) {
  const events: MarketplaceEvent[] = [];
  let wake: (() => void)[] = [];
  const emit = (type: MarketplaceEvent['type'] = 'order.created') => {
    const id = `evt_${String(events.length + 1).padStart(4, '0')}`;
    events.push({ id, type, timestamp: new Date().toISOString(), data: { n: events.length + 1 } } as unknown as MarketplaceEvent);
    for (const resolve of wake) resolve();
    wake = [];
  };
  const select = (request: RecordedRequest) => {
    const types = request.query.getAll('type');
    const limit = Number(request.query.get('limit') ?? 20);
    const matching = events.filter((event) => types.length === 0 || types.includes(event.type));
    const after = request.query.get('after');
    if (after === null) return matching.slice().reverse().slice(0, limit);
    return matching.filter((event) => event.id > after).slice(0, limit);
  };
  server = await scriptedServer(async (request) => {
    if (request.path.startsWith('/v1/events/')) return ok(events.find((event) => event.id === request.path.split('/')[3]));
    let items = select(request);
    const waitSeconds = Number(request.query.get('waitSeconds') ?? 0);
    if (items.length === 0 && waitSeconds > 0 && options.honourWait !== false) {
      await new Promise<void>((resolve) => {
        wake.push(resolve);
        setTimeout(resolve, waitSeconds * 1000);
      });
      items = select(request);
    }
    return ok({ items, nextCursor: null });
  });
  return { mk: new Marketplace({ apiKey: 'mk_test_key', baseUrl: server.url }), server, emit, events };
}

/** Resolves once the server has received its first request (follow() has read where "now" is). */
async function firstRequest(server: ScriptedServer): Promise<void> {
  while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function take(iterator: AsyncIterable<MarketplaceEvent>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of iterator) {
    ids.push(event.id);
    if (ids.length === count) break;
  }
  return ids;
}

describe('events', () => {
  it('lists and gets events', async () => {
    const { mk, server, emit } = await eventsServer();
    emit();
    emit('order.shipped');
    expect((await mk.events.list()).items.map((event) => event.id)).toEqual(['evt_0002', 'evt_0001']);
    expect((await mk.events.get('evt_0002')).type).toBe('order.shipped');
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/events', '/v1/events/evt_0002']);
  });

  it('follows from a given event, oldest first, asking after the last one seen and long-polling', async () => {
    const { mk, server, emit } = await eventsServer();
    for (let i = 0; i < 3; i += 1) emit();
    const pending = take(mk.events.follow({ after: 'evt_0001', limit: 2, type: ['order.created'] }), 4);
    setTimeout(() => emit(), 100);
    setTimeout(() => emit('order.shipped'), 150);
    setTimeout(() => emit(), 200);
    expect(await pending).toEqual(['evt_0002', 'evt_0003', 'evt_0004', 'evt_0006']);
    const queries = server.requests.map((request) => request.query);
    expect(queries[0]!.get('after')).toBe('evt_0001');
    expect(queries[1]!.get('after')).toBe('evt_0003');
    for (const query of queries) {
      expect(query.get('waitSeconds')).toBe('20');
      expect(query.getAll('type')).toEqual(['order.created']);
    }
  });

  it('follows from now by default: events that happened before are not repeated', async () => {
    const { mk, server, emit } = await eventsServer();
    emit();
    emit();
    const pending = take(mk.events.follow(), 2);
    await firstRequest(server);
    emit();
    emit();
    expect(await pending).toEqual(['evt_0003', 'evt_0004']);
  });

  it('follows from the first event ever when there is none yet', async () => {
    const { mk, server, emit } = await eventsServer();
    const pending = take(mk.events.follow({ minPollIntervalMs: 20 }), 3);
    await firstRequest(server);
    emit();
    emit();
    setTimeout(() => emit(), 200);
    expect(await pending).toEqual(['evt_0001', 'evt_0002', 'evt_0003']);
  });

  it('stops with the signal’s reason while waiting', async () => {
    const { mk, emit } = await eventsServer();
    emit();
    const controller = new AbortController();
    const pending = take(mk.events.follow({ signal: controller.signal }), 1);
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    await expect(pending).rejects.toThrow('shutting down');
  });

  it('does not spin when the server answers empty pages at once', async () => {
    const { mk, server, emit } = await eventsServer({ honourWait: false });
    emit();
    const controller = new AbortController();
    const pending = take(mk.events.follow({ signal: controller.signal, minPollIntervalMs: 200 }), 1).catch(() => []);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    controller.abort();
    await pending;
    // One request for the starting point, then at most one poll per 200 ms.
    expect(server.requests.length).toBeLessThanOrEqual(7);
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
  });
});
