// Catalog feeds (sellers): upload a CSV or JSON file in whichever mode fits its size, follow it until
// it has been processed, list, retry and delete feeds.
import { WaitTimeoutError } from '../errors.ts';
import { path, type ApiRequest, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { Feed, FeedWithUpload, QueryParams, RequestBody, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export type FeedFormat = 'csv' | 'json';
/** A file's content: text, bytes, or a Blob (`await fs.openAsBlob(path)` streams from disk). */
export type FeedFile = string | Uint8Array | Blob;
type FeedProducts = Extract<RequestBody<'uploadFeed'>, { products: unknown }>['products'];

/** What to upload: one of the API's upload modes. */
export type FeedUpload =
  /** CSV text or bytes, sent inline as `text/csv` (up to 5 MiB). */
  | { csv: string | Uint8Array; filename?: string }
  /** JSON feed rows, sent inline as `{products}` (up to 5 MiB). */
  | { products: FeedProducts; filename?: string }
  /**
   * A file of either format. `via` defaults to multipart up to 4 MiB and to a presigned upload above
   * (up to 100 MiB); the format comes from `format`, the filename's extension or the Blob's type.
   */
  | { file: FeedFile; format?: FeedFormat; filename?: string; via?: 'multipart' | 'presigned' };

export interface WaitOptions {
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /** The longest pause between polls (default 5 s); polling starts at 0.5 s and backs off toward it. */
  maxPollIntervalMs?: number;
  signal?: AbortSignal;
}

/** Above this, a file goes presigned: API Gateway refuses multipart bodies of about 4.4 MiB and more. */
export const MULTIPART_LIMIT_BYTES = 4 * 1024 * 1024;
const FINAL_STATUSES = new Set(['completed', 'failed']);
const MEDIA_TYPES: Record<FeedFormat, string> = { csv: 'text/csv', json: 'application/json' };

function formatOf(input: { file: FeedFile; format?: FeedFormat; filename?: string }): FeedFormat {
  if (input.format) return input.format;
  const extension = /\.(csv|json)$/i.exec(input.filename ?? (input.file instanceof File ? input.file.name : ''))?.[1]?.toLowerCase();
  if (extension === 'csv' || extension === 'json') return extension;
  if (input.file instanceof Blob) {
    if (/^text\/csv\b/.test(input.file.type)) return 'csv';
    if (/^application\/json\b/.test(input.file.type)) return 'json';
  }
  throw new TypeError("Say the feed's format: { format: 'csv' | 'json' } (or give a filename ending in .csv or .json)");
}

function asBlob(file: FeedFile, type: string): Blob {
  if (file instanceof Blob) return file;
  // The DOM's Blob takes bytes over an ArrayBuffer only (never a SharedArrayBuffer): a file's bytes are.
  return new Blob([file as string | Uint8Array<ArrayBuffer>], { type });
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

export class Feeds extends Resource {
  /**
   * Uploads a feed; it is processed asynchronously (`waitUntilDone`). For a presigned upload the file
   * is sent to the returned URL too, and the feed is read again afterwards.
   */
  upload(input: FeedUpload, options?: RequestOptions): Promise<WithResponse<Feed>> {
    return this.#submit(path`/v1/seller/feeds`, input, options);
  }

  /** A presigned upload only: the feed (`awaiting_upload`) with `uploadUrl`, to PUT the file yourself. */
  createUpload(body: { format: FeedFormat; filename?: string }, options?: RequestOptions): Promise<WithResponse<FeedWithUpload>> {
    return this.http.call({ method: 'POST', path: path`/v1/seller/feeds`, body: { json: { ...body, upload: 'presigned' } }, options });
  }

  /** The seller's feeds, newest first (`status` to filter). */
  list(query: QueryParams<'listFeeds'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listFeeds'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/seller/feeds`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  get(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getFeed'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/seller/feeds/${id}`, options });
  }

  /** Processes a failed feed again: its stored file, or `input` in its place. */
  retry(id: string, input?: FeedUpload, options?: RequestOptions): Promise<WithResponse<Feed>> {
    if (input === undefined) return this.http.call({ method: 'POST', path: path`/v1/seller/feeds/${id}/retry`, options });
    return this.#submit(path`/v1/seller/feeds/${id}/retry`, input, options);
  }

  /** Removes the feed and its stored files (never its products); refused while it is processing. */
  delete(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'deleteFeed'>>> {
    return this.http.call({ method: 'DELETE', path: path`/v1/seller/feeds/${id}`, options });
  }

  /** Polls the feed until it has `completed` or `failed`, and returns it (a failed feed is returned, not thrown). */
  async waitUntilDone(id: string, options: WaitOptions = {}): Promise<WithResponse<Feed>> {
    const timeoutMs = options.timeoutMs ?? 600_000;
    const maxInterval = options.maxPollIntervalMs ?? 5_000;
    const deadline = Date.now() + timeoutMs;
    for (let interval = Math.min(500, maxInterval); ; interval = Math.min(maxInterval, interval * 1.5)) {
      const feed = await this.get(id, options.signal ? { signal: options.signal } : undefined);
      if (FINAL_STATUSES.has(feed.status)) return feed;
      const left = deadline - Date.now();
      if (left <= 0) throw new WaitTimeoutError(`Feed ${id} is still ${feed.status} after ${Math.round(timeoutMs / 1000)} s`);
      await sleep(Math.min(interval, left), options.signal);
    }
  }

  async #submit(route: string, input: FeedUpload, options: RequestOptions | undefined): Promise<WithResponse<Feed>> {
    const query = input.filename === undefined ? undefined : { filename: input.filename };
    if ('csv' in input) {
      return this.http.call({ method: 'POST', path: route, query, body: { raw: input.csv, contentType: 'text/csv' }, options });
    }
    if ('products' in input) {
      return this.http.call({ method: 'POST', path: route, body: { json: { products: input.products, ...(input.filename === undefined ? {} : { filename: input.filename }) } }, options });
    }
    const format = formatOf(input);
    const blob = asBlob(input.file, MEDIA_TYPES[format]);
    const via = input.via ?? (blob.size > MULTIPART_LIMIT_BYTES ? 'presigned' : 'multipart');
    if (via === 'multipart') {
      const form = new FormData();
      form.append('format', format);
      form.append('file', blob, input.filename ?? `feed.${format}`);
      return this.http.call({ method: 'POST', path: route, body: { raw: form }, options });
    }
    const created = await this.http.call<FeedWithUpload>({
      method: 'POST',
      path: route,
      body: { json: { format, upload: 'presigned', ...(input.filename === undefined ? {} : { filename: input.filename }) } },
      options,
    });
    const put: ApiRequest = {
      method: created.uploadMethod,
      path: `presigned upload of feed ${created.feedId}`,
      externalUrl: created.uploadUrl,
      body: { raw: blob, ...(created.uploadHeaders['content-type'] ? { contentType: created.uploadHeaders['content-type'] } : {}) },
      // A large file takes longer than an API call; at least 10 minutes per attempt.
      options: { ...options, headers: created.uploadHeaders, timeoutMs: Math.max(options?.timeoutMs ?? this.http.timeoutMs, 600_000) },
    };
    await this.http.send(put);
    return this.get(created.feedId, options?.signal ? { signal: options.signal } : undefined);
  }
}
