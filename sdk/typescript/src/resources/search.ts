// Search: structured (POST /v1/search) and plain-language intents (POST /v1/search-intent). Both are
// lists: await the first page (with `interpretation` for intents), or iterate every item.
import type { RequestOptions } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { RequestBody, ResponseData, SearchPageOf } from '../types.ts';
import { Resource } from './resource.ts';

export class Search extends Resource {
  /** Words, filters (price filters need `currency`) and a sort; `fields: 'compact'` for smaller items. */
  query<B extends RequestBody<'search'>>(body: B = {} as B, options?: RequestOptions): PagePromise<SearchPageOf<ResponseData<'search'>, B['fields']>> {
    return this.#pages('/v1/search', body, options);
  }

  /** A request in plain language ("500 nitrile gloves under 0.15 EUR from Germany within 10 days"); `fields: 'compact'` for smaller items. */
  intent<B extends RequestBody<'searchIntent'>>(body: B, options?: RequestOptions): PagePromise<SearchPageOf<ResponseData<'searchIntent'>, B['fields']>> {
    return this.#pages('/v1/search-intent', body, options);
  }

  #pages<B extends { cursor?: string }, D extends { items: unknown[]; nextCursor: string | null }>(route: string, body: B, options: RequestOptions | undefined) {
    return new PagePromise<D>((cursor) =>
      this.http.call({
        method: 'POST',
        path: route,
        body: { json: cursor === undefined ? body : { ...body, cursor } },
        // A later page is another request: it gets its own Idempotency-Key, never the first page's (or,
        // when the caller sent none, none).
        options: cursor === undefined || options?.idempotencyKey === null ? options : { ...options, idempotencyKey: undefined },
      }),
    );
  }
}
