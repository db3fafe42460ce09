// Negotiation sessions: a buyer opens one on an offer; the parties counter in turns; whoever's turn it
// is accepts the terms on the table; either party rejects.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { QueryParams, RequestBody, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export class Negotiations extends Resource {
  /** Opens a session (buyers): `unitPrice` defaults to the offer's price for the quantity. */
  start(body: RequestBody<'startNegotiation'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'startNegotiation'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/negotiate`, body: { json: body }, options });
  }

  /** A new proposal; only by the party whose turn it is. */
  counter(sessionId: string, body: RequestBody<'counterNegotiation'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'counterNegotiation'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/negotiate/${sessionId}`, body: { json: body }, options });
  }

  /** Accepts the other party's proposal on the table; only by the party whose turn it is. */
  accept(sessionId: string, body?: RequestBody<'acceptNegotiation'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'acceptNegotiation'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/negotiate/${sessionId}/accept`, body: body === undefined ? undefined : { json: body }, options });
  }

  /** Ends the session; either party, while it is open. */
  reject(sessionId: string, body?: RequestBody<'rejectNegotiation'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'rejectNegotiation'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/negotiate/${sessionId}/reject`, body: body === undefined ? undefined : { json: body }, options });
  }

  /** The caller's sessions, newest first: open ones unless `status` says otherwise. */
  list(query: QueryParams<'listNegotiations'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listNegotiations'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/negotiations`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  get(sessionId: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getNegotiation'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/negotiations/${sessionId}`, options });
  }
}
