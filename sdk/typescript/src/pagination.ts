// Lists: `await mk.orders.list()` is the first page ({items, nextCursor, …}, with nextPage());
// `for await (const order of mk.orders.list())` is every item across pages, fetched as it goes.
import type { WithResponse } from './http.ts';

export interface PageData<T> {
  items: T[];
  nextCursor: string | null;
}

/** One page as the API answered it, plus `hasMore` and `nextPage()` (both not enumerable). */
export type Page<D extends PageData<unknown>> = WithResponse<D> & {
  /** True when there is a page after this one. */
  readonly hasMore: boolean;
  /** The next page, or null after the last. */
  nextPage(): Promise<Page<D> | null>;
};

/** Fetches the page at `cursor` (undefined: the first page). */
export type PageFetcher<D> = (cursor: string | undefined) => Promise<WithResponse<D>>;

function asPage<D extends PageData<unknown>>(data: WithResponse<D>, fetchPage: PageFetcher<D>): Page<D> {
  const cursor = data.nextCursor;
  Object.defineProperties(data, {
    hasMore: { value: cursor !== null, enumerable: false, configurable: true },
    nextPage: {
      value: async () => (cursor === null ? null : asPage(await fetchPage(cursor), fetchPage)),
      enumerable: false,
      configurable: true,
    },
  });
  return data as Page<D>;
}

/**
 * A list call: a promise of its first page and an async iterable over all its items. Nothing is sent
 * until it is awaited or iterated; iterating after awaiting reuses the first page.
 */
export class PagePromise<D extends PageData<T>, T = D['items'][number]> implements PromiseLike<Page<D>>, AsyncIterable<T> {
  readonly #fetchPage: PageFetcher<D>;
  #first: Promise<Page<D>> | undefined;

  constructor(fetchPage: PageFetcher<D>) {
    this.#fetchPage = fetchPage;
  }

  #firstPage(): Promise<Page<D>> {
    this.#first ??= this.#fetchPage(undefined).then((data) => asPage(data, this.#fetchPage));
    return this.#first;
  }

  then<R1 = Page<D>, R2 = never>(
    onfulfilled?: ((page: Page<D>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<D> | R> {
    return this.#firstPage().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page<D>> {
    return this.#firstPage().finally(onfinally);
  }

  /** Every page, in order. */
  async *pages(): AsyncGenerator<Page<D>, void, undefined> {
    let page: Page<D> | null = await this.#firstPage();
    while (page) {
      yield page;
      page = await page.nextPage();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item across pages, up to `limit` (default 10,000: a list larger than that is better iterated). */
  async toArray(options: { limit?: number } = {}): Promise<T[]> {
    const limit = options.limit ?? 10_000;
    const items: T[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
