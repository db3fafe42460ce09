// Orders: placed from an accepted session, then confirmed, shipped and delivered by the seller and
// completed by the buyer; cancelled by either party before shipping. Every change is audited.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { QueryParams, RequestBody, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export class Orders extends Resource {
  /** Orders an accepted session (buyers): stock is taken and the session marked ordered, atomically. */
  create(body: RequestBody<'createOrder'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'createOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/create-order`, body: { json: body }, options });
  }

  /** The caller's orders, newest first (`status`, `role` to filter). */
  list(query: QueryParams<'listOrders'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listOrders'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/orders`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  get(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getOrder'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/orders/${id}`, options });
  }

  /** The order's audit trail, oldest first. */
  audit(id: string, query: QueryParams<'getOrderAudit'> = {}, options?: RequestOptions): PagePromise<ResponseData<'getOrderAudit'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/orders/${id}/audit`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  /** Cancels a pending or confirmed order (either party); the quantity goes back to stock. */
  cancel(id: string, body?: RequestBody<'cancelOrder'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'cancelOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/cancel`, body: body === undefined ? undefined : { json: body }, options });
  }

  /** The seller confirms a pending order. */
  confirm(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'confirmOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/confirm`, options });
  }

  /** The seller ships a confirmed order, with carrier and tracking number. */
  ship(id: string, body: RequestBody<'shipOrder'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'shipOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/ship`, body: { json: body }, options });
  }

  /** The seller marks a shipped order delivered. */
  deliver(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'deliverOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/deliver`, options });
  }

  /** The buyer completes a delivered order. */
  complete(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'completeOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/complete`, options });
  }
}
