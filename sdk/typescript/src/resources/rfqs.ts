// Requests for quotes: a buyer asks every matching seller at once; each seller answers with one sealed
// quote (replaceable while the request is open); the buyer awards one, which becomes an accepted
// negotiation session to order with `orders.create({ sessionId })`.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { Quote, QueryParams, RequestBody, ResponseData, Rfq } from '../types.ts';
import { Resource } from './resource.ts';

export class Rfqs extends Resource {
  /**
   * Asks for quotes (buyers): the sellers whose active catalog matches (or those in `sellerIds`) get
   * `rfq.created`. `sellerCount` is null until they are reached; `closesAt` is 1 hour to 14 days ahead.
   */
  create(body: RequestBody<'createRfq'>, options?: RequestOptions): Promise<WithResponse<Rfq>> {
    return this.http.call({ method: 'POST', path: path`/v1/rfqs`, body: { json: body }, options });
  }

  /** A buyer's own requests (every status unless `status`); a seller's, those it was sent (open unless `status`). */
  list(query: QueryParams<'listRfqs'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listRfqs'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/rfqs`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  /** One request with its quotes: the buyer sees every quote, best first; a seller only its own. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<Rfq>> {
    return this.http.call({ method: 'GET', path: path`/v1/rfqs/${id}`, options });
  }

  /**
   * Quotes on an open request, or replaces the seller's quote (sellers). Another currency, a price above
   * `maxUnitPrice` or more than the stock: ValidationError on the field; after `closesAt`: ConflictError.
   */
  quote(id: string, body: RequestBody<'submitQuote'>, options?: RequestOptions): Promise<WithResponse<Quote>> {
    return this.http.call({ method: 'POST', path: path`/v1/rfqs/${id}/quotes`, body: { json: body }, options });
  }

  /** Awards a quote (buyers): the request's `sessionId` is then an accepted session to order. */
  award(id: string, body: RequestBody<'awardRfq'>, options?: RequestOptions): Promise<WithResponse<Rfq>> {
    return this.http.call({ method: 'POST', path: path`/v1/rfqs/${id}/award`, body: { json: body }, options });
  }

  /** Withdraws the request (buyers); the sellers it reached hear `rfq.closed`. */
  cancel(id: string, body?: RequestBody<'cancelRfq'>, options?: RequestOptions): Promise<WithResponse<Rfq>> {
    return this.http.call({ method: 'POST', path: path`/v1/rfqs/${id}/cancel`, body: body === undefined ? undefined : { json: body }, options });
  }
}
