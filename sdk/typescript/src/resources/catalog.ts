// The catalog as everyone reads it, and the seller's own view: products, offers, templates.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { QueryParams, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export class Products extends Resource {
  /** A product with its offers (private prices only to its seller). */
  get(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getProduct'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/products/${id}`, options });
  }
}

export class Offers extends Resource {
  get(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getOffer'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/offers/${id}`, options });
  }
}

export class SellerProducts extends Resource {
  /** The seller's own products, active and inactive, with private prices (`status`, `sku` to filter). */
  list(query: QueryParams<'listSellerProducts'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listSellerProducts'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/seller/products`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }
}

/** Any answer will do: the template routes send the raw file only when Accept names its type alone. */
const ENVELOPE_OR_FILE = 'application/json, */*;q=0.1';

export class Templates extends Resource {
  /** The CSV feed template: `content` is the file, `fields` describes every column. */
  csv(options?: RequestOptions): Promise<WithResponse<ResponseData<'getCsvFeedTemplate'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/seller/templates/csv`, options });
  }

  /** The JSON feed template: `content` is the file, `fields` describes every field. */
  json(options?: RequestOptions): Promise<WithResponse<ResponseData<'getJsonFeedTemplate'>>> {
    // `Accept: application/json` alone asks this route for the raw file; the SDK wants the envelope.
    return this.http.call({ method: 'GET', path: path`/v1/seller/templates/json`, options: { ...options, headers: { accept: ENVELOPE_OR_FILE, ...options?.headers } } });
  }
}
