// The events feed: every event the caller is a party to, in the webhook envelope. `follow()` is a
// long-polling async iterator over new events, for agents that cannot receive webhooks.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { MarketplaceEvent, QueryParams, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export interface FollowOptions {
  /** Start after this event id (exclusive). Default: after the newest event now, so only new events come. */
  after?: string;
  /** Only these event names. */
  type?: QueryParams<'listEvents'>['type'];
  /** How long each poll may wait on the server for an event (0–20 s; default 20). */
  waitSeconds?: number;
  /** Events per request (default 100). */
  limit?: number;
  /** Stops following; the iterator then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The shortest time between two polls that found nothing (default 1 s), should the server answer at once. */
  minPollIntervalMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });

export class Events extends Resource {
  /** Events newest first; with `after`, the events after that one, oldest first. */
  list(query: QueryParams<'listEvents'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listEvents'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/events`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  get(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getEvent'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/events/${id}`, options });
  }

  /**
   * Every new event, oldest first, as it happens: each poll asks for the events after the last one
   * seen (`after`), waiting up to `waitSeconds` on the server. Runs until the loop breaks or the signal
   * aborts. To resume later without gaps, keep the last event's id and pass it as `after`.
   */
  async *follow(options: FollowOptions = {}): AsyncGenerator<MarketplaceEvent, void, undefined> {
    const waitSeconds = options.waitSeconds ?? 20;
    const limit = options.limit ?? 100;
    const minInterval = options.minPollIntervalMs ?? 1_000;
    const signal = options.signal;
    // A long poll must outlast its wait on the server.
    const request: RequestOptions = { timeoutMs: Math.max(this.http.timeoutMs, (waitSeconds + 10) * 1000), ...(signal ? { signal } : {}) };
    const filter = options.type === undefined ? {} : { type: options.type };
    let after = options.after;
    if (after === undefined) {
      const newest = await this.list({ ...filter, limit: 1 }, request);
      after = newest.items[0]?.id;
    }
    while (after === undefined) {
      // Nothing has happened yet: wait for the first events (newest first), then follow from them.
      const started = Date.now();
      const first = await this.list({ ...filter, limit, waitSeconds }, request).toArray();
      if (first.length > 0) {
        first.reverse();
        yield* first;
        after = first[first.length - 1]?.id;
      } else {
        await sleep(Math.max(0, minInterval - (Date.now() - started)), signal);
      }
    }
    for (;;) {
      const started = Date.now();
      const page = await this.list({ ...filter, after, limit, waitSeconds }, request);
      for (const event of page.items) {
        yield event;
        after = event.id;
      }
      if (page.items.length === 0) await sleep(Math.max(0, minInterval - (Date.now() - started)), signal);
    }
  }
}
