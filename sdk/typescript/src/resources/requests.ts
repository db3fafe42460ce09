// The request log: the caller's requests of the last 7 days as the API answered them (status, error
// code, duration, key, Idempotency-Key), newest first; one request with its error body by its id.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { QueryParams, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export class Requests extends Resource {
  /** The caller's requests, newest first; `status` (`4xx`, `5xx`, `422`) and `path` (a prefix) filter them. */
  list(query: QueryParams<'listRequests'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listRequests'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/requests`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  /** One request by its id (a response's `X-Request-Id`, an error's `requestId`), with the error body of an error. */
  get(requestId: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getRequest'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/requests/${requestId}`, options });
  }
}
